// The online protocol (PROTOCOL.md beside this file), as the browser player speaks it: the
// game code and the keys stretched from it, the canonical JSON every signature covers,
// HMAC-SHA256, the messages and their sealed form, the toss and the move log. It is the twin
// of firmware/online/{code,messages,wire,toss,log}.py, and the tests run both on the same
// inputs. Hashes, HMAC, scrypt, HKDF and ChaCha20-Poly1305 come from the audited noble
// libraries (noble.js beside this file, loaded first) rather than WebCrypto: crypto.subtle
// exists only on https:// and localhost pages, and a club may serve this page over plain http
// on its own network.
(function (root) {
  "use strict";
  // Marks a message a player may be shown (an older version named, a void toss): the
  // catalogs hold it (Babel extracts N_), and the page words it in its language when shown.
  const N_ = (text) => text;

  // -- SHA-256 and HMAC: @noble/hashes ----------------------------------------------------------
  const NOBLE = root.NavakankariNoble;

  function utf8(text) { return new TextEncoder().encode(text); }

  function sha256(bytes) { return NOBLE.sha256(bytes); }

  function hmacSha256(key, message) { return NOBLE.hmac(NOBLE.sha256, key, message); }

  function hex(bytes) {
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // -- canonical JSON: Python's json.dumps(sort_keys=True, separators=(",", ":"),
  // ensure_ascii=True), so both sides sign the same bytes ------------------------------------
  function asciiString(text) {
    return JSON.stringify(text).replace(/[\u007f-\uffff]/g,
      (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
  }

  function canonical(value) {
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    if (value !== null && typeof value === "object") {
      return "{" + Object.keys(value).sort().map(
        (key) => asciiString(key) + ":" + canonical(value[key])).join(",") + "}";
    }
    if (typeof value === "string") return asciiString(value);
    return JSON.stringify(value);
  }

  // -- the game code ----------------------------------------------------------------------------
  const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  const VALUE = {};
  for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET[i]] = i;
  Object.assign(VALUE, { O: 0, I: 1, L: 1 });
  const ID_SYMBOLS = 8, SECRET_SYMBOLS = 12, SYMBOLS = 20;

  /** A fault in a game code, a message or a toss. `words`: its message with {places} (one a
   * player may be shown is marked N_ and in the catalogs), `places` what goes in them; the
   * message in English is `message`, the page says it in its language from the two. */
  class ProtocolError extends Error {
    constructor(words, places) {
      const given = places || {};
      super(String(words).replace(/\{(\w+)\}/g, (all, name) => (name in given ? String(given[name]) : all)));
      this.words = String(words);
      this.places = given;
    }
  }

  function checkSymbol(symbols) { return ALPHABET[sha256(utf8(symbols))[0] % 32]; }

  function parseCode(text) {
    if (typeof text !== "string") throw new ProtocolError("a game code is text");
    const compact = text.split(/\s+/).join("").replace(/-/g, "").toUpperCase();
    if (compact.length !== SYMBOLS + 1) {
      throw new ProtocolError(N_("a game code has {n} symbols (as K7M-2P9-QRT-AX4-B8C-D3F-GH5); this has {given}"),
        { n: SYMBOLS + 1, given: compact.length });
    }
    for (let i = 0; i < compact.length; i++) {
      if (!(compact[i] in VALUE)) {
        throw new ProtocolError(N_("symbol {i} of the game code, '{symbol}', is not one a code uses (letters and digits but U)"),
          { i: i + 1, symbol: compact[i] });
      }
    }
    const symbols = Array.from(compact, (c) => ALPHABET[VALUE[c]]).join("");
    if (checkSymbol(symbols.slice(0, SYMBOLS)) !== symbols[SYMBOLS]) {
      throw new ProtocolError(N_("the game code does not check: a symbol was mistyped"));
    }
    const game = symbols.slice(0, ID_SYMBOLS), secret = symbols.slice(ID_SYMBOLS, SYMBOLS);
    return makeCode(game, secret);
  }

  // -- the keys: scrypt of the secret salted with the game id (memory-hard, so an offline
  // guess of a code costs one scrypt), then one HKDF-SHA256 label each (code.py) -------------
  const VERSION = 2;
  const LABEL = `navakankari-online:v${VERSION}:`;
  const SCRYPT = { N: 1 << 14, r: 8, p: 1, dkLen: 32 };
  const STRETCHED = new Map();  // game+secret -> scrypt's output: stretched once a page

  function stretched(game, secret) {
    const name = game + secret;
    if (!STRETCHED.has(name)) {
      STRETCHED.set(name, NOBLE.scrypt(utf8(secret), utf8(LABEL + game), SCRYPT));
    }
    return STRETCHED.get(name);
  }

  /** Stretch a code's secret without holding the page up (scrypt yields to it now and then,
   * where the first read of a key would block it for as long): the keys come from the cache
   * afterwards. */
  async function prepare(code) {
    const name = code.game + code.secret;
    if (!STRETCHED.has(name)) {
      const value = await NOBLE.scryptAsync(utf8(code.secret), utf8(LABEL + code.game), SCRYPT);
      if (!STRETCHED.has(name)) STRETCHED.set(name, value);
    }
    return code;
  }

  function derive(game, secret, label, length) {
    return NOBLE.hkdf(NOBLE.sha256, stretched(game, secret), undefined, utf8(LABEL + label),
      length || 32);
  }

  function makeCode(game, secret) {
    const symbols = game + secret;
    const code = { game, secret,
      text: ((symbols + checkSymbol(symbols)).match(/.{1,3}/g) || []).join("-") };
    const lazy = (name, make) => Object.defineProperty(code, name, {
      enumerable: false, configurable: true,
      get() { const value = make(); Object.defineProperty(code, name, { value }); return value; } });
    lazy("key", () => derive(game, secret, "sign"));  // HMAC-SHA256 of every message
    lazy("sealKey", () => derive(game, secret, "seal"));  // ChaCha20-Poly1305 of every payload
    lazy("room", () => hex(derive(game, secret, "game", 16)));  // the game's topics
    lazy("lobby", () => hex(derive(game, secret, "invite", 16)));  // the invitation's
    return code;
  }

  /** A fresh code from the browser's random source (256 is a multiple of 32: no bias). */
  function newCode() {
    const symbols = Array.from(crypto.getRandomValues(new Uint8Array(SYMBOLS)),
      (b) => ALPHABET[b % 32]).join("");
    return makeCode(symbols.slice(0, ID_SYMBOLS), symbols.slice(ID_SYMBOLS));
  }

  /** The code of the next game between the same two players, derived from this one's
   * stretched secret under its own label. */
  function nextCode(code) {
    const digest = derive(code.game, code.secret, "next", SYMBOLS);
    const symbols = Array.from(digest, (b) => ALPHABET[b % 32]).join("");
    return makeCode(symbols.slice(0, ID_SYMBOLS), symbols.slice(ID_SYMBOLS));
  }

  // -- messages ---------------------------------------------------------------------------------
  // Every payload the player reads goes through `read`: bounded before it is parsed (size,
  // nesting, the length of every number), then checked field by field (hex of the right length
  // before any comparison), then its signature. It returns the message or a named rejection
  // and never throws, so nothing a stranger on the broker publishes can stop the player.
  const MAX_BYTES = 1024 * 1024;
  const MAX_DEPTH = 3;  // a snapshot's move inside its list inside the snapshot
  const MAX_MOVES = 4000;  // more moves than any game of the shipped variants reaches
  const MAX_DIGITS = 6;  // of a whole number: enough for MAX_MOVES
  const SIDES = ["white", "black"];
  const OTHER = { white: "black", black: "white" };
  const PREFIX = `navakankari/v${VERSION}`, OLDER_PREFIX = "navakankari/v1";
  const FIELDS = {
    move: { game: "str", n: "int", side: "str", action: "str", prev: "str", era: "int" },
    invite: { game: "str", variant: "str", colour: "str", starts: "str", board: "str",
              commit: "str" },
    join: { game: "str", board: "str", bit: "int" },
    reveal: { game: "str", nonce: "str", bit: "int" },
    forfeit: { game: "str", board: "str" },
    snapshot: { game: "str", side: "str", moves: "moves" },
    request: { game: "str", side: "str", what: "str", at: "int", keep: "int", id: "str",
               era: "int" },
    answer: { game: "str", side: "str", id: "str", accept: "int" },
    resync: { game: "str", side: "str", after: "int" },
  };
  const REQUESTS = ["takeback", "new-game", "resign"];
  // Each text field's shape (PROTOCOL.md, "Reading a payload"): hex of its lengths, checked
  // before any comparison; the code's alphabet for the game id; else at most so many characters.
  const HEX = { mac: [64], prev: [0, 64], commit: [0, 64], nonce: [32], id: [16] };
  const TEXT = { action: 64, board: 80, variant: 40, what: 16, starts: 5, side: 5, colour: 5 };
  // Protocol 2's invitation before it named the inviter's colour apart from who starts: a
  // player of this game that still words it so is named as an older version (messages.py).
  const OLDER_INVITE = ["board", "commit", "game", "kind", "mac", "side", "starts", "variant"];
  const OLDER_WORDING = N_("the other player runs an older version of online play (protocol 2 as it was before each player kept its colour whoever starts): it must be updated before the two can play");
  const RANGE = { n: [1, MAX_MOVES], at: [0, MAX_MOVES], keep: [0, MAX_MOVES],
                  after: [0, MAX_MOVES], era: [0, MAX_MOVES], bit: [0, 1], accept: [0, 1] };
  const HEX_DIGITS = /^[0-9a-f]*$/, GAME_ID = /^[0-9A-HJKMNP-TV-Z]{8}$/;
  /** Every reason a payload is refused before it reaches the game (as messages.py names them). */
  const REJECTIONS = ["too-large", "too-deep", "not-json", "malformed", "unknown-kind",
    "other-game", "bad-signature", "bad-seal", "old-version", "other-version"];

  /** A payload refused, with the name of its kind of fault (counted per name) and why. */
  class Rejection {
    constructor(name, why) { this.name = name; this.why = why; }
  }

  function body(message) {
    const out = {};
    for (const name of Object.keys(message)) if (name !== "mac") out[name] = message[name];
    return out;
  }

  function macOf(key, message) { return hex(hmacSha256(key, utf8(canonical(body(message))))); }

  function sign(key, message) { return Object.assign({}, message, { mac: macOf(key, message) }); }

  function encode(message) { return canonical(message); }

  /** A Rejection when the JSON text nests deeper or writes another number than any message
   * has (a whole number of at most MAX_DIGITS digits), found in one pass outside strings
   * before JSON.parse is let near it. */
  function bounds(text) {
    let depth = 0, digits = 0, inString = false, escaped = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;  // backslash
        else if (c === 0x22) inString = false;
        continue;
      }
      if (c >= 0x30 && c <= 0x39) {
        if (++digits > MAX_DIGITS) {
          return new Rejection("malformed", `a number of more than ${MAX_DIGITS} digits`);
        }
        continue;
      }
      if (digits && (c === 0x2e || c === 0x65 || c === 0x45)) {  // . e E
        return new Rejection("malformed", "the protocol has whole numbers only");
      }
      digits = 0;
      if (c === 0x22) inString = true;
      else if (c === 0x5b || c === 0x7b) {  // [ {
        if (++depth > MAX_DEPTH) return new Rejection("too-deep", `nested deeper than ${MAX_DEPTH}`);
      } else if (c === 0x5d || c === 0x7d) depth--;
    }
    return null;
  }

  /** The message an object stands for, or a Rejection naming what is wrong with it. */
  function fromObject(data, inner) {
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      return new Rejection("malformed", "a message is a JSON object");
    }
    const kind = data.kind;
    if (typeof kind !== "string" || !Object.prototype.hasOwnProperty.call(FIELDS, kind)) {
      const shown = typeof kind === "string" ? kind.slice(0, 20) : typeof kind;
      return new Rejection("unknown-kind", `unknown kind ${JSON.stringify(shown)}; one of ` +
        Object.keys(FIELDS).join(", "));
    }
    if (inner && kind !== "move") return new Rejection("malformed", "a snapshot holds moves only");
    const fields = FIELDS[kind];
    const given = Object.keys(data).filter((k) => k !== "kind" && k !== "mac").sort();
    const wanted = Object.keys(fields).sort();
    if (given.join() !== wanted.join() || !Object.prototype.hasOwnProperty.call(data, "mac")) {
      return new Rejection("malformed", `a ${kind} with other fields than ` +
        `${wanted.join(", ")}, mac`);
    }
    for (const name of wanted.concat(["mac"])) {
      const value = data[name], want = fields[name] || "str";
      if (want === "int") {
        if (!Number.isSafeInteger(value)) {
          return new Rejection("malformed", `${kind}.${name} must be a whole number`);
        }
        const [low, high] = RANGE[name];
        if (value < low || value > high) {
          return new Rejection("malformed", `${kind}.${name} must be ${low}..${high}, not ${value}`);
        }
      } else if (want === "str") {
        if (typeof value !== "string") return new Rejection("malformed", `${kind}.${name} must be text`);
        const wrong = textFault(kind, name, value);
        if (wrong) return new Rejection("malformed", wrong);
      } else {  // a snapshot's moves
        if (!Array.isArray(value) || value.length > MAX_MOVES) {
          return new Rejection("malformed", `a snapshot's moves are a list of at most ${MAX_MOVES}`);
        }
        for (const m of value) {
          const got = fromObject(m, true);
          if (got instanceof Rejection) return got;
        }
      }
    }
    if ("side" in fields && !SIDES.includes(data.side)) {
      return new Rejection("malformed", `${kind}.side must be white or black`);
    }
    if (kind === "invite" && !SIDES.includes(data.colour)) {
      return new Rejection("malformed", "invite.colour must be white or black");
    }
    if (kind === "invite" && !["white", "black", "toss"].includes(data.starts)) {
      return new Rejection("malformed", "invite.starts is one of white, black, toss");
    }
    if (kind === "request" && (!REQUESTS.includes(data.what) || data.keep > data.at)) {
      return new Rejection("malformed", `a request is one of ${REQUESTS.join(", ")}, keeping ` +
        "at most the moves there are");
    }
    return data;
  }

  /** Whether `data` is an invitation of `game` in protocol 2's older wording, signed by a
   * player of this game. */
  function olderInvite(key, game, data) {
    if (data === null || typeof data !== "object" || Array.isArray(data)) return false;
    if (Object.keys(data).sort().join() !== OLDER_INVITE.join()) return false;
    if (data.kind !== "invite" || data.game !== game || typeof data.mac !== "string") return false;
    return macOf(key, data) === data.mac;
  }

  /** What is wrong with a text field's value, or "" (the shapes of PROTOCOL.md). */
  function textFault(kind, name, value) {
    if (name === "game") {
      return GAME_ID.test(value) ? "" : `${kind}.game must be 8 symbols of the code's alphabet`;
    }
    if (name in HEX) {
      return HEX[name].includes(value.length) && HEX_DIGITS.test(value) ? ""
        : `${kind}.${name} must be ${HEX[name].join(" or ")} lowercase hex digits`;
    }
    return value.length <= TEXT[name] ? ""
      : `${kind}.${name} is ${value.length} characters; at most ${TEXT[name]}`;
  }

  /** One payload read and checked: the message, or a Rejection; never throws. */
  function read(key, game, payload) {
    try {
      return readChecked(key, game, payload);
    } catch (err) {  // a fault of this code, not of the payload: refused all the same
      return new Rejection("fault", `could not be read (${err && err.name})`);
    }
  }

  function readChecked(key, game, payload) {
    const bytes = typeof payload === "string" ? utf8(payload) : payload;
    if (!(bytes instanceof Uint8Array)) return new Rejection("malformed", "not a payload");
    if (bytes.length > MAX_BYTES) {
      return new Rejection("too-large", `a message of ${bytes.length} bytes; at most ${MAX_BYTES}`);
    }
    let text, data;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (err) {
      return new Rejection("not-json", "not UTF-8 text");
    }
    const bounded = bounds(text);
    if (bounded) return bounded;
    try {
      data = JSON.parse(text);
    } catch (err) {
      return new Rejection("not-json", `not JSON: ${err.message}`);
    }
    if (olderInvite(key, game, data)) return new Rejection("old-version", OLDER_WORDING);
    const message = fromObject(data, false);
    if (message instanceof Rejection) return message;
    if (message.game !== game) {
      return new Rejection("other-game",
        `a message of game ${JSON.stringify(message.game.slice(0, 40))}, not of '${game}'`);
    }
    if (macOf(key, message) !== message.mac) {
      return new Rejection("bad-signature", `a ${message.kind} whose signature does not check: ` +
        "not from a player of this game, or altered on the way");
    }
    if (message.kind === "snapshot") {
      for (const move of message.moves) {
        if (move.game !== game) {
          return new Rejection("other-game", `move ${move.n} in the snapshot is of another game`);
        }
        if (macOf(key, move) !== move.mac) {
          return new Rejection("bad-signature", `move ${move.n} in the snapshot does not check`);
        }
      }
    }
    return message;
  }

  /** Refused messages counted by reason; the first of a reason is logged at once, later ones
   * at most once a minute per reason with how many came since, so a flood of garbage cannot
   * flood the console too (as rejections.py does on a board). */
  class Refusals {
    constructor(now, warn) {
      this.now = now || (() => Date.now());
      this.warn = warn || ((text) => console.warn(text));
      this.total = 0;
      this.counts = {};
      this.loggedAt = {};
      this.unlogged = {};
    }

    add(reason, why) {
      this.total += 1;
      this.counts[reason] = (this.counts[reason] || 0) + 1;
      this.unlogged[reason] = (this.unlogged[reason] || 0) + 1;
      const t = this.now(), last = this.loggedAt[reason];
      if (last !== undefined && t - last < 60000) return;
      const count = this.unlogged[reason];
      delete this.unlogged[reason];
      this.loggedAt[reason] = t;
      this.warn(last === undefined || count === 1
        ? `online: dropped a message (${reason}): ${why}`
        : `online: dropped ${count} messages (${reason}) in the last ` +
          `${Math.round((t - last) / 1000)} s, the latest: ${why}`);
    }
  }

  /** `read` for callers that want an exception: the tests, and code handed one message. */
  function decode(key, game, payload) {
    const got = read(key, game, payload);
    if (got instanceof Rejection) throw new ProtocolError(got.why);
    return got;
  }

  // -- the sealed payload (wire.py): a version byte, a 12-byte nonce, and the message's
  // canonical JSON under ChaCha20-Poly1305 with the version byte and the topic authenticated -
  const NONCE = 12, OVERHEAD = 1 + NONCE + 16, LATEST = 15;
  const MAX_PAYLOAD = MAX_BYTES + OVERHEAD;
  const OLDER = N_("the other player runs an older version of online play (protocol 1): it must be updated before the two can play");

  /** The game's topics: named from its secret, so a member of the broker cannot find them. */
  function topic(code, side, what) { return `${PREFIX}/${code.room}/${side}/${what}`; }
  /** The invitation's topics, under another name than the game's. */
  function gameTopic(code, what) { return `${PREFIX}/${code.lobby}/${what}`; }
  /** Where a player of protocol 1 publishes for this code. */
  function olderTopic(code, ...parts) { return [OLDER_PREFIX, code.game, ...parts].join("/"); }

  function seal(code, name, message) {
    const nonce = crypto.getRandomValues(new Uint8Array(NONCE));
    const head = new Uint8Array([VERSION]);
    const aad = new Uint8Array(1 + utf8(name).length);
    aad.set(head);
    aad.set(utf8(name), 1);
    const sealed = NOBLE.chacha20poly1305(code.sealKey, nonce, aad).encrypt(
      utf8(encode(message)));
    const out = new Uint8Array(1 + NONCE + sealed.length);
    out.set(head);
    out.set(nonce, 1);
    out.set(sealed, 1 + NONCE);
    return out;
  }

  /** The message a payload on topic `name` carries, or a Rejection; never throws. */
  function unseal(code, name, payload) {
    try {
      const bytes = typeof payload === "string" ? utf8(payload) : payload;
      if (!(bytes instanceof Uint8Array)) return new Rejection("malformed", "not a payload");
      if (bytes.length > MAX_PAYLOAD) {
        return new Rejection("too-large", `a payload of ${bytes.length} bytes; at most ${MAX_PAYLOAD}`);
      }
      if (!bytes.length) return new Rejection("malformed", "an empty payload");
      const version = bytes[0];
      if (version > VERSION && version <= LATEST) {
        return new Rejection("other-version", `a payload of protocol ${version}, not ` +
          `${VERSION}: the other player runs a newer version of online play`);
      }
      if (version !== VERSION) {
        return new Rejection("malformed", `not a sealed payload (it begins with byte ${version})`);
      }
      if (bytes.length < OVERHEAD) {
        return new Rejection("malformed", `a payload of ${bytes.length} bytes is too short`);
      }
      const aad = new Uint8Array(1 + utf8(name).length);
      aad.set(bytes.subarray(0, 1));
      aad.set(utf8(name), 1);
      let plain;
      try {
        plain = NOBLE.chacha20poly1305(code.sealKey, bytes.slice(1, 1 + NONCE), aad).decrypt(
          bytes.slice(1 + NONCE));
      } catch (err) {
        return new Rejection("bad-seal", "a payload that does not open with this game's key " +
          "on this topic: not from a player of this game, altered, or moved");
      }
      return read(code.key, code.game, plain);
    } catch (err) {
      return new Rejection("fault", `could not be opened (${err && err.name})`);
    }
  }

  /** Whether a payload on a protocol-1 topic of this code was signed by a player of this
   * game running protocol 1 (its key: SHA-256 of the code's text, as it was). */
  function fromOlder(code, payload) {
    try {
      const bytes = typeof payload === "string" ? utf8(payload) : payload;
      if (!(bytes instanceof Uint8Array) || !bytes.length || bytes.length > MAX_BYTES) return false;
      const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      if (bounds(text)) return false;
      const data = JSON.parse(text);
      if (data === null || typeof data !== "object" || Array.isArray(data)
          || data.game !== code.game || typeof data.mac !== "string"
          || data.mac.length !== 64 || !HEX_DIGITS.test(data.mac)) return false;
      const key = sha256(utf8(`navakankari-online:${code.game}:${code.secret}`));
      return macOf(key, data) === data.mac;
    } catch (err) {
      return false;
    }
  }

  // -- the toss -------------------------------------------------------------------------------
  function commitment(game, nonce, bit) {
    return hex(sha256(utf8(`navakankari-toss:${game}:${nonce}:${bit}`)));
  }

  function randomBit() { return crypto.getRandomValues(new Uint8Array(1))[0] & 1; }

  function starter(game, commit, nonce, bit, otherBit) {
    if (![0, 1].includes(bit) || ![0, 1].includes(otherBit)) {
      throw new ProtocolError("a toss bit is 0 or 1");
    }
    if (commitment(game, nonce, bit) !== commit) {
      throw new ProtocolError(N_("the revealed bit does not match the commitment: the toss is void"));
    }
    return bit === otherBit ? "white" : "black";
  }

  // -- the move log ---------------------------------------------------------------------------
  // Verdicts as log.py names them.
  const APPLIED = "applied", DUPLICATE = "duplicate", GAP = "gap", FORK = "fork",
    REJECTED = "rejected", STALE = "stale";

  class MoveLog {
    constructor(code, game) {
      this.code = code;
      this.game = game;  // a rules.js game
      this.moves = [];
      this.forked = false;
      this.fork = null;  // {n, common}: where the two logs part, once they do
      this.takebacks = [];  // the moves each takeback both agreed to kept, in order
    }

    /** The takebacks agreed so far: every move made now carries it. */
    get era() { return this.takebacks.length; }

    /** Move i was made in the era of the last takeback that kept fewer than i moves. */
    static rebuild(code, game, actions, takebacks) {
      const log = new MoveLog(code, game);
      log.takebacks = (Array.isArray(takebacks) ? takebacks : [])
        .filter((k) => Number.isSafeInteger(k) && k >= 0).slice(0, MAX_MOVES);
      actions.forEach((a, i) => {
        let era = 0;
        log.takebacks.forEach((k, j) => { if (k < i + 1) era = j + 1; });
        log.record(a, era);
      });
      return log;
    }

    get lastMac() { return this.moves.length ? this.moves[this.moves.length - 1].mac : ""; }

    record(action, era) {
      if (this.forked) throw new ProtocolError("the game stopped at a fork");
      const side = this.game.turn;
      this.game.play(action);
      const move = sign(this.code.key, { kind: "move", game: this.code.game,
        n: this.moves.length + 1, side, action, prev: this.lastMac,
        era: era === undefined ? this.era : era });
      this.moves.push(move);
      return move;
    }

    /** How many moves from the first this log shares with `moves` (another player's). */
    commonWith(moves) {
      let k = 0;
      while (k < this.moves.length && k < moves.length && this.moves[k].mac === moves[k].mac) k++;
      return k;
    }

    /** The two games differ from after move `common` on (as log.py counts it: the same
     * number less one, or for another `prev`, two less): stop, and say where. */
    forkAt(move, why, common) {
      if (!this.forked) {
        this.forked = true;
        this.fork = { n: move.n, common: Math.max(0, common), why };
      }
      return { verdict: FORK, why };
    }

    /** Where the two logs part, as the other's snapshot shows it exactly. */
    forkSeen(moves) {
      if (this.forked) this.fork.common = Math.min(this.commonWith(moves), this.moves.length);
    }

    /** A move that arrived (its signature checked by `read`). `sender`: the side of the
     * player it came from (its topic, or the snapshot's side): a new move must be that
     * side's, whatever side it names. */
    receive(move, sender) {
      const n = this.moves.length;
      if (move.n < 1) return { verdict: REJECTED, why: `move number ${move.n}` };
      if (move.n <= n) {
        const held = this.moves[move.n - 1];
        if (held.mac === move.mac) return { verdict: DUPLICATE, why: "" };
        if (move.era < held.era) {  // late, or replayed, from before a takeback
          return { verdict: STALE, why: `move ${move.n} (${move.action}) was withdrawn by a ` +
            "takeback both agreed to" };
        }
        if (move.era > this.era) {  // a takeback the other agreed to and this one not yet
          return { verdict: GAP, why: `move ${move.n} comes after a takeback not known here yet` };
        }
        return this.forkAt(move, `move ${move.n} is ${held.action} here ` +
          `and ${move.action} there`, move.n - 1);
      }
      if (move.era < this.era) {
        return { verdict: STALE, why: `move ${move.n} (${move.action}) was made before a ` +
          "takeback both agreed to" };
      }
      if (this.forked) return { verdict: REJECTED, why: "the game stopped at a fork" };
      if (move.n > n + 1 || move.era > this.era) {
        return { verdict: GAP, why: `move ${move.n} of era ${move.era} arrived after move ${n} ` +
          `of era ${this.era}` };
      }
      if (move.prev !== this.lastMac) {
        return this.forkAt(move, `move ${move.n} (${move.action}) follows another move ${n} ` +
          "than this page's", n - 1);
      }
      if (sender && move.side !== sender) {
        return { verdict: REJECTED, why: `move ${move.n} is marked ${move.side}'s but came ` +
          `from ${sender}` };
      }
      if (move.side !== this.game.turn) {
        return { verdict: REJECTED, why: `move ${move.n} is ${move.side}'s, but ` +
          `${this.game.turn} is to act` };
      }
      try {
        this.game.play(move.action);
      } catch (err) {
        return { verdict: REJECTED, why: `move ${move.n} '${move.action}': ${err.message}` };
      }
      this.moves.push(move);
      return { verdict: APPLIED, why: "" };
    }

    /** Both players agreed to take the game back to `keep` moves (which also settles a fork
     * when it goes back to what both games share). */
    truncate(keep) {
      if (keep < 0 || keep > this.moves.length) {
        throw new ProtocolError(`keep must be 0..${this.moves.length}, not ${keep}`);
      }
      this.moves.splice(keep);
      this.takebacks.push(keep);  // what it withdrew is of an earlier era now: never applied
      this.game.rewind(keep);
      if (this.forked && keep <= this.fork.common) {  // back to what both games share
        this.forked = false;
        this.fork = null;
      }
    }

    /** The moves of a snapshot in order until one does not apply. `own`, when given, is the
     * side whose moves only this player makes: a move of that side not held already stops the
     * catch-up (a snapshot cannot put a move in this player's name). */
    catchUp(snapshot, own) {
      const out = [];
      for (const move of snapshot.moves) {
        if (own && move.side === own && move.n > this.moves.length) {
          out.push({ verdict: REJECTED, why: `move ${move.n} is marked ${own}'s but came from ` +
            "the other player" });
          break;
        }
        const got = this.receive(move);
        out.push(got);
        if (got.verdict !== APPLIED && got.verdict !== DUPLICATE) break;
      }
      return out;
    }

    snapshot(side) {
      return sign(this.code.key, { kind: "snapshot", game: this.code.game, side,
        moves: this.moves.slice() });
    }
  }

  root.NavakankariProtocol = {
    sha256, hmacSha256, hex, utf8, canonical, parseCode, newCode, nextCode, ProtocolError, sign,
    encode, read, Rejection, Refusals, REJECTIONS, MAX_DEPTH, MAX_DIGITS, MAX_MOVES,
    decode, REQUESTS, VERSION, seal, unseal, fromOlder, olderTopic, OLDER, OLDER_WORDING,
    OVERHEAD, MAX_PAYLOAD,
    stretched, derive, prepare,
    topic, gameTopic, commitment, randomBit, starter, MoveLog, SIDES, OTHER, PREFIX, MAX_BYTES,
    APPLIED, DUPLICATE, GAP, FORK, REJECTED, STALE,
  };
})(typeof window !== "undefined" ? window : globalThis);
