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
  const MAX_BYTES = 1024 * 1024;
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

  function body(message) {
    const out = {};
    for (const name of Object.keys(message)) if (name !== "mac") out[name] = message[name];
    return out;
  }

  function macOf(key, message) { return hex(hmacSha256(key, utf8(canonical(body(message))))); }

  function sign(key, message) { return Object.assign({}, message, { mac: macOf(key, message) }); }

  function encode(message) { return canonical(message); }

  function fromObject(data) {
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      throw new ProtocolError("a message is a JSON object");
    }
    const fields = FIELDS[data.kind];
    if (!fields) {
      throw new ProtocolError(`unknown kind ${JSON.stringify(data.kind)}; one of ` +
        Object.keys(FIELDS).join(", "));
    }
    const given = Object.keys(data).filter((k) => k !== "kind" && k !== "mac").sort();
    const wanted = Object.keys(fields).sort();
    if (given.join() !== wanted.join() || typeof data.mac !== "string") {
      throw new ProtocolError(`a ${data.kind} with other fields than ${wanted.join(", ")}, mac`);
    }
    for (const name of wanted) {
      const value = data[name];
      const want = fields[name];
      if (want === "int" && !Number.isInteger(value)) {
        throw new ProtocolError(`${data.kind}.${name} must be a whole number`);
      }
      if (want === "str" && typeof value !== "string") {
        throw new ProtocolError(`${data.kind}.${name} must be text`);
      }
      if (want === "moves") {
        if (!Array.isArray(value)) throw new ProtocolError("a snapshot's moves are a list");
        value.forEach((m) => {
          if (fromObject(m).kind !== "move") throw new ProtocolError("a snapshot holds moves only");
        });
      }
    }
    if ("side" in fields && !SIDES.includes(data.side)) {
      throw new ProtocolError(`${data.kind}.side must be white or black`);
    }
    if (data.kind === "request" && (!REQUESTS.includes(data.what) || data.keep < 0
                                    || data.keep > data.at)) {
      throw new ProtocolError(`a request is one of ${REQUESTS.join(", ")}, keeping at most ` +
        "the moves there are");
    }
    if (data.kind === "answer" && ![0, 1].includes(data.accept)) {
      throw new ProtocolError("an answer's accept is 0 or 1");
    }
    return data;
  }

  function decode(key, game, payload) {
    const bytes = typeof payload === "string" ? utf8(payload) : payload;
    if (bytes.length > MAX_BYTES) {
      throw new ProtocolError(`a message of ${bytes.length} bytes; at most ${MAX_BYTES}`);
    }
    let data;
    try {
      data = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    } catch (err) {
      throw new ProtocolError(`not JSON: ${err.message}`);
    }
    const message = fromObject(data);
    if (message.game !== game) {
      throw new ProtocolError(`a message of game '${message.game}', not of '${game}'`);
    }
    if (macOf(key, message) !== message.mac) {
      throw new ProtocolError(`a ${message.kind} whose signature does not check: not from a ` +
        "player of this game, or altered on the way");
    }
    if (message.kind === "snapshot") {
      message.moves.forEach((move) => {
        if (macOf(key, move) !== move.mac) {
          throw new ProtocolError(`move ${move.n} in the snapshot does not check`);
        }
      });
    }
    return message;
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
    constructor(code, game) {
      this.code = code;
      this.game = game;  // a rules.js game
      this.moves = [];
      this.forked = false;
      this.withdrawn = new Set();  // macs of moves taken back by agreement
    }

    static rebuild(code, game, actions) {
      const log = new MoveLog(code, game);
      actions.forEach((a) => log.record(a));
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
      return move;
    }

    receive(move) {
      const n = this.moves.length;
      if (move.n < 1) return { verdict: REJECTED, why: `move number ${move.n}` };
      if (move.n <= n) {
        if (this.moves[move.n - 1].mac === move.mac || this.withdrawn.has(move.mac)) {
          return { verdict: DUPLICATE, why: "" };
        }
        this.forked = true;
        return { verdict: FORK, why: `move ${move.n} is ${this.moves[move.n - 1].action} ` +
          `here and ${move.action} there` };
      }
      if (this.forked) return { verdict: REJECTED, why: "the game stopped at a fork" };
      if (move.n > n + 1) return { verdict: GAP, why: `move ${move.n} arrived after move ${n}` };
      if (move.prev !== this.lastMac) {
        this.forked = true;
        return { verdict: FORK, why: `move ${move.n} follows another move ${n}` };
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
      this.withdrawn.delete(move.mac);
      return { verdict: APPLIED, why: "" };
    }

    /** Both players agreed to take the game back to `keep` moves. */
    truncate(keep) {
      if (keep < 0 || keep > this.moves.length) {
        throw new ProtocolError(`keep must be 0..${this.moves.length}, not ${keep}`);
      }
      for (const move of this.moves.splice(keep)) this.withdrawn.add(move.mac);
      this.game.rewind(keep);
    }

    catchUp(snapshot) {
      const out = [];
      for (const move of snapshot.moves) {
        if (this.withdrawn.has(move.mac) && move.n > this.moves.length) break;
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
    encode,
    decode, REQUESTS,
    topic, gameTopic, commitment, randomBit, starter, MoveLog, SIDES, OTHER, PREFIX, MAX_BYTES,
    APPLIED, DUPLICATE, GAP, FORK, REJECTED,
  };
})(typeof window !== "undefined" ? window : globalThis);
