// The online protocol (PROTOCOL.md beside this file), as the browser player speaks it: the
// game code, the canonical JSON every signature covers, HMAC-SHA256, the messages, the toss
// and the move log. It is the twin of firmware/online/{code,messages,toss,log}.py, and the
// tests run both on the same inputs. Hashes, HMAC and ciphers come from the audited noble
// libraries (noble.js beside this file, loaded first) rather than WebCrypto: crypto.subtle
// exists only on https:// and localhost pages, and a club may serve this page over plain http
// on its own network.
(function (root) {
  "use strict";

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

  class ProtocolError extends Error {}

  function checkSymbol(symbols) { return ALPHABET[sha256(utf8(symbols))[0] % 32]; }

  function parseCode(text) {
    if (typeof text !== "string") throw new ProtocolError("a game code is text");
    const compact = text.split(/\s+/).join("").replace(/-/g, "").toUpperCase();
    if (compact.length !== SYMBOLS + 1) {
      throw new ProtocolError(`a game code has ${SYMBOLS + 1} symbols (as ` +
        `K7M-2P9-QRT-AX4-B8C-D3F-GH5); this has ${compact.length}`);
    }
    for (let i = 0; i < compact.length; i++) {
      if (!(compact[i] in VALUE)) {
        throw new ProtocolError(`symbol ${i + 1} of the game code, '${compact[i]}', is not ` +
          "one a code uses (letters and digits but U)");
      }
    }
    const symbols = Array.from(compact, (c) => ALPHABET[VALUE[c]]).join("");
    if (checkSymbol(symbols.slice(0, SYMBOLS)) !== symbols[SYMBOLS]) {
      throw new ProtocolError("the game code does not check: a symbol was mistyped");
    }
    const game = symbols.slice(0, ID_SYMBOLS), secret = symbols.slice(ID_SYMBOLS, SYMBOLS);
    return makeCode(game, secret);
  }

  function makeCode(game, secret) {
    const symbols = game + secret;
    return {
      game, secret,
      key: sha256(utf8(`navakankari-online:${game}:${secret}`)),
      text: ((symbols + checkSymbol(symbols)).match(/.{1,3}/g) || []).join("-"),
    };
  }

  /** A fresh code from the browser's random source (256 is a multiple of 32: no bias). */
  function newCode() {
    const symbols = Array.from(crypto.getRandomValues(new Uint8Array(SYMBOLS)),
      (b) => ALPHABET[b % 32]).join("");
    return makeCode(symbols.slice(0, ID_SYMBOLS), symbols.slice(ID_SYMBOLS));
  }

  /** The code of the next game between the same two players, derived from this one's key. */
  function nextCode(code) {
    const tail = utf8("navakankari-online:next");
    const joined = new Uint8Array(code.key.length + tail.length);
    joined.set(code.key);
    joined.set(tail, code.key.length);
    const digest = sha256(joined);
    const symbols = Array.from(digest.slice(0, SYMBOLS), (b) => ALPHABET[b % 32]).join("");
    return makeCode(symbols.slice(0, ID_SYMBOLS), symbols.slice(ID_SYMBOLS));
  }

  // -- messages ---------------------------------------------------------------------------------
  // Every payload the player reads goes through `read`: bounded before it is parsed (size,
  // nesting, the length of every number), then checked field by field (hex of the right length
  // before any comparison), then its signature. It returns the message or a named rejection
  // and never throws, so nothing a stranger on the broker publishes can stop the player.
  const MAX_BYTES = 1024 * 1024;
  const MAX_DEPTH = 8;  // a snapshot is three deep: the snapshot, its list, a move
  const MAX_NUMBER = 16;  // characters of one number: every safe integer fits
  const SIDES = ["white", "black"];
  const OTHER = { white: "black", black: "white" };
  const PREFIX = "navakankari/v1";
  const FIELDS = {
    move: { game: "str", n: "int", side: "str", action: "str", prev: "str" },
    invite: { game: "str", variant: "str", side: "str", starts: "str", board: "str",
              commit: "str" },
    join: { game: "str", board: "str", bit: "int" },
    reveal: { game: "str", nonce: "str", bit: "int" },
    snapshot: { game: "str", side: "str", moves: "moves" },
    request: { game: "str", side: "str", what: "str", at: "int", keep: "int", id: "str" },
    answer: { game: "str", side: "str", id: "str", accept: "int" },
  };
  const REQUESTS = ["takeback", "new-game", "resign"];
  const HEX64 = /^[0-9a-f]{64}$/, HEX16 = /^[0-9a-f]{16}$/;

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

  /** A Rejection when the JSON text nests deeper or writes a longer number than any message
   * has, found in one pass before JSON.parse is let near it. */
  function bounds(text) {
    let depth = 0, number = 0, inString = false, escaped = false;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;  // backslash
        else if (c === 0x22) inString = false;
        continue;
      }
      if (c === 0x22) { inString = true; number = 0; continue; }
      if (c === 0x5b || c === 0x7b) {  // [ {
        if (++depth > MAX_DEPTH) return new Rejection("too-deep", `nested more than ${MAX_DEPTH} deep`);
      } else if (c === 0x5d || c === 0x7d) depth--;
      if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x45
          || c === 0x65) {
        if (++number > MAX_NUMBER) {
          return new Rejection("long-number", `a number longer than ${MAX_NUMBER} characters`);
        }
      } else number = 0;
    }
    return null;
  }

  /** The message an object stands for, or a Rejection naming what is wrong with it. */
  function fromObject(data, inner) {
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      return new Rejection("not-an-object", "a message is a JSON object");
    }
    const kind = data.kind;
    if (typeof kind !== "string" || !Object.prototype.hasOwnProperty.call(FIELDS, kind)) {
      return new Rejection("unknown-kind", `unknown kind ${JSON.stringify(kind)}; one of ` +
        Object.keys(FIELDS).join(", "));
    }
    if (inner && kind !== "move") return new Rejection("fields", "a snapshot holds moves only");
    const fields = FIELDS[kind];
    const given = Object.keys(data).filter((k) => k !== "kind" && k !== "mac").sort();
    const wanted = Object.keys(fields).sort();
    if (given.join() !== wanted.join() || !("mac" in data)) {
      return new Rejection("fields", `a ${kind} with other fields than ${wanted.join(", ")}, mac`);
    }
    if (typeof data.mac !== "string" || !HEX64.test(data.mac)) {
      return new Rejection("bad-hex", `a ${kind}'s mac is 64 hex digits`);
    }
    for (const name of wanted) {
      const value = data[name], want = fields[name];
      if (want === "int" && !Number.isSafeInteger(value)) {
        return new Rejection("field-type", `${kind}.${name} must be a whole number`);
      }
      if (want === "str" && typeof value !== "string") {
        return new Rejection("field-type", `${kind}.${name} must be text`);
      }
      if (want === "moves") {
        if (!Array.isArray(value)) return new Rejection("field-type", "a snapshot's moves are a list");
        for (const m of value) {
          const got = fromObject(m, true);
          if (got instanceof Rejection) return got;
        }
      }
    }
    if ("side" in fields && !SIDES.includes(data.side)) {
      return new Rejection("bad-value", `${kind}.side must be white or black`);
    }
    if (kind === "move" && (data.n < 1 || !(data.prev === "" || HEX64.test(data.prev)))) {
      return new Rejection("bad-value", "a move's n counts from 1 and its prev is a mac or empty");
    }
    if (kind === "invite" && !["white", "black", "toss"].includes(data.starts)) {
      return new Rejection("bad-value", "an invite's starts is white, black or toss");
    }
    if ((kind === "join" || kind === "reveal") && ![0, 1].includes(data.bit)) {
      return new Rejection("bad-value", `a ${kind}'s bit is 0 or 1`);
    }
    if ((kind === "request" || kind === "answer") && !HEX16.test(data.id)) {
      return new Rejection("bad-hex", `a ${kind}'s id is 16 hex digits`);
    }
    if (kind === "request" && (!REQUESTS.includes(data.what) || data.keep < 0
                               || data.keep > data.at)) {
      return new Rejection("bad-value", `a request is one of ${REQUESTS.join(", ")}, keeping ` +
        "at most the moves there are");
    }
    if (kind === "answer" && ![0, 1].includes(data.accept)) {
      return new Rejection("bad-value", "an answer's accept is 0 or 1");
    }
    return data;
  }

  /** One payload read and checked: the message, or a Rejection; never throws. */
  function read(key, game, payload) {
    try {
      return readChecked(key, game, payload);
    } catch (err) {  // a fault of this code, not of the payload: refused all the same
      return new Rejection("unreadable", `could not be read (${err && err.name})`);
    }
  }

  function readChecked(key, game, payload) {
    const bytes = typeof payload === "string" ? utf8(payload) : payload;
    if (!(bytes instanceof Uint8Array)) return new Rejection("not-text", "not a payload");
    if (bytes.length > MAX_BYTES) {
      return new Rejection("too-large", `a message of ${bytes.length} bytes; at most ${MAX_BYTES}`);
    }
    let text, data;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (err) {
      return new Rejection("not-text", "not UTF-8 text");
    }
    const bounded = bounds(text);
    if (bounded) return bounded;
    try {
      data = JSON.parse(text);
    } catch (err) {
      return new Rejection("not-json", `not JSON: ${err.message}`);
    }
    const message = fromObject(data, false);
    if (message instanceof Rejection) return message;
    if (message.game !== game) {
      return new Rejection("other-game",
        `a message of game ${JSON.stringify(message.game.slice(0, 40))}, not of '${game}'`);
    }
    if (macOf(key, message) !== message.mac) {
      return new Rejection("signature", `a ${message.kind} whose signature does not check: ` +
        "not from a player of this game, or altered on the way");
    }
    if (message.kind === "snapshot") {
      for (const move of message.moves) {
        if (move.game !== game || macOf(key, move) !== move.mac) {
          return new Rejection("signature", `move ${move.n} in the snapshot does not check`);
        }
      }
    }
    return message;
  }

  /** Refused messages counted by the name of their fault; each name is logged at most once a
   * minute, with its count, so a flood of garbage cannot flood the console too. */
  class Refusals {
    constructor(now, warn) {
      this.now = now || (() => Date.now());
      this.warn = warn || ((text) => console.warn(text));
      this.total = 0;
      this.counts = {};
      this.logged = {};
    }

    add(name, why) {
      this.total += 1;
      this.counts[name] = (this.counts[name] || 0) + 1;
      const t = this.now();
      if (!(name in this.logged) || t - this.logged[name] >= 60000) {
        this.logged[name] = t;
        this.warn(`online: refused ${this.counts[name]} message(s) (${name}); the last: ${why}`);
      }
    }
  }

  /** `read` for callers that want an exception: the tests, and code handed one message. */
  function decode(key, game, payload) {
    const got = read(key, game, payload);
    if (got instanceof Rejection) throw new ProtocolError(got.why);
    return got;
  }

  function topic(game, side, what) { return `${PREFIX}/${game}/${side}/${what}`; }
  function gameTopic(game, what) { return `${PREFIX}/${game}/${what}`; }

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
      throw new ProtocolError("the revealed bit does not match the commitment: the toss is void");
    }
    return bit === otherBit ? "white" : "black";
  }

  // -- the move log ---------------------------------------------------------------------------
  // Verdicts as log.py names them.
  const APPLIED = "applied", DUPLICATE = "duplicate", GAP = "gap", FORK = "fork",
    REJECTED = "rejected";

  class MoveLog {
    constructor(code, game, withdrawn) {
      this.code = code;
      this.game = game;  // a rules.js game
      this.moves = [];
      this.forked = false;
      this.fork = null;  // {n, common}: where the two logs part, once they do
      this.withdrawn = new Set(withdrawn || []);  // macs of moves taken back by agreement
    }

    static rebuild(code, game, actions, withdrawn) {
      const log = new MoveLog(code, game);
      actions.forEach((a) => log.record(a));
      (withdrawn || []).forEach((mac) => log.withdrawn.add(mac));
      return log;
    }

    get lastMac() { return this.moves.length ? this.moves[this.moves.length - 1].mac : ""; }

    record(action) {
      if (this.forked) throw new ProtocolError("the game stopped at a fork");
      const side = this.game.turn;
      this.game.play(action);
      const move = sign(this.code.key, { kind: "move", game: this.code.game,
        n: this.moves.length + 1, side, action, prev: this.lastMac });
      this.moves.push(move);
      this.withdrawn.delete(move.mac);  // this player made the same move again
      return move;
    }

    /** How many moves from the first this log shares with `moves` (another player's). */
    commonWith(moves) {
      let k = 0;
      while (k < this.moves.length && k < moves.length && this.moves[k].mac === moves[k].mac) k++;
      return k;
    }

    forkAt(move, why) {
      if (!this.forked) {
        this.forked = true;
        // move n - 1 is the other's `prev`: shared when this log holds it, else unknown
        // until the other's snapshot shows where the two part
        const n = move.n, before = n >= 2 && n - 1 <= this.moves.length
          ? this.moves[n - 2].mac : n === 1 ? "" : null;
        this.fork = { n, common: before === move.prev ? n - 1 : 0 };
      }
      return { verdict: FORK, why };
    }

    /** Where the two logs part, as the other's snapshot shows it. */
    forkSeen(moves) {
      if (this.forked) this.fork.common = Math.min(this.commonWith(moves), this.moves.length);
    }

    receive(move) {
      const n = this.moves.length;
      if (move.n < 1) return { verdict: REJECTED, why: `move number ${move.n}` };
      if (move.n <= n) {
        if (this.moves[move.n - 1].mac === move.mac || this.withdrawn.has(move.mac)) {
          return { verdict: DUPLICATE, why: "" };
        }
        return this.forkAt(move, `move ${move.n} is ${this.moves[move.n - 1].action} here ` +
          `and ${move.action} there`);
      }
      if (this.withdrawn.has(move.mac)) {  // taken back by agreement: never again, at any number
        return { verdict: REJECTED, why: `move ${move.n} ${move.action} was taken back` };
      }
      if (this.forked) return { verdict: REJECTED, why: "the game stopped at a fork" };
      if (move.n > n + 1) return { verdict: GAP, why: `move ${move.n} arrived after move ${n}` };
      if (move.prev !== this.lastMac) {
        return this.forkAt(move, `move ${move.n} follows another move ${n}`);
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
     * at or after it). */
    truncate(keep) {
      if (keep < 0 || keep > this.moves.length) {
        throw new ProtocolError(`keep must be 0..${this.moves.length}, not ${keep}`);
      }
      for (const move of this.moves.splice(keep)) this.withdrawn.add(move.mac);
      this.game.rewind(keep);
      this.forked = false;
      this.fork = null;
    }

    /** The moves of a snapshot in order until one does not apply. `own`, when given, is the
     * side whose moves only this player makes: a move of that side not held already stops the
     * catch-up (a snapshot cannot put a move in this player's name). */
    catchUp(snapshot, own) {
      const out = [];
      for (const move of snapshot.moves) {
        if (this.withdrawn.has(move.mac) && move.n > this.moves.length) break;
        if (own && move.side === own && move.n > this.moves.length) {
          out.push({ verdict: GAP, why: `move ${move.n} is ${own}'s, not held here yet` });
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
    encode, read, Rejection, Refusals, MAX_DEPTH, MAX_NUMBER,
    decode, REQUESTS,
    topic, gameTopic, commitment, randomBit, starter, MoveLog, SIDES, OTHER, PREFIX, MAX_BYTES,
    APPLIED, DUPLICATE, GAP, FORK, REJECTED,
  };
})(typeof window !== "undefined" ? window : globalThis);
