// The rules of the morris family (place, move or fly, close a mill, remove), as
// engine/morris.py plays them, for the browser player: it checks every move that arrives and
// offers only legal ones. Each variant's options and board come from variants.js, written from
// the engine's own tables (`navakankari online-page`); the tests play the same random games
// through both and compare every legal list and every ending.
(function (root) {
  "use strict";

  function popcount(x) {
    let n = 0;
    while (x) { x &= x - 1; n++; }
    return n;
  }

  function bits(mask) {
    const out = [];
    for (let p = 0; mask; p++, mask >>>= 1) if (mask & 1) out.push(p);
    return out;
  }

  class RulesError extends Error {}

  class MorrisGame {
    /** A game from the empty board; `first`: the colour that acts first ("white" unless
     * said: the toss or the invitation may let black begin, each player keeping its colour). */
    constructor(variant, first) {
      if (variant.rules.game !== "morris") {
        throw new RulesError(`${variant.name} is not played on this page: it plays the ` +
          "morris games (place, move, mill, take)");
      }
      this.variant = variant;
      this.name = variant.name;
      this.rules = variant.rules;
      this.points = variant.board.points;
      this.coordinates = variant.board.coordinates;
      this.lines = variant.board.lines;
      this.index = new Map(this.points.map((p, i) => [p, i]));
      this.adj = variant.board.adjacency.map((ns) => ns.reduce((m, q) => m | (1 << q), 0));
      this.mills = variant.board.mills.map((ps) => ps.reduce((m, q) => m | (1 << q), 0));
      this.millsAt = this.points.map(() => []);
      this.mills.forEach((m, k) => bits(m).forEach((p) => this.millsAt[p].push([k, m])));
      this.full = this.points.length === 32 ? -1 >>> 0 : (1 << this.points.length) - 1;
      this.bb = [0, 0];
      this.hand = [this.rules.pieces, this.rules.pieces];
      this.first = first === "black" ? "black" : "white";
      this.side = this.first === "black" ? 1 : 0;
      this.pending = 0;
      this.millCounts = new Array(2 * this.mills.length).fill(0);
      this.lastMove = [null, null];
      this.quiet = 0;
      this.rep = new Map();
      this.history = [];
      this.lastMills = [];
    }

    get turn() { return this.side ? "black" : "white"; }

    at(point) {
      const p = this.index.get(point);
      if ((this.bb[0] >> p) & 1) return "white";
      if ((this.bb[1] >> p) & 1) return "black";
      return null;
    }

    key() {
      return [this.bb[0], this.bb[1], this.hand[0], this.hand[1], this.side, this.pending,
        this.millCounts.join("."), JSON.stringify(this.lastMove)].join("/");
    }

    flies(s) {
      const fly = this.rules.flying;
      if (fly === "none" || this.hand[s]) return false;
      if (popcount(this.bb[s]) <= this.rules.fly_threshold) return true;
      if (fly === "both") {
        const o = s ^ 1;
        return !this.hand[o] && popcount(this.bb[o]) <= this.rules.fly_threshold;
      }
      return false;
    }

    takeable(o) {
      const opp = this.bb[o];
      let inMill = 0;
      for (const m of this.mills) if ((opp & m) === m) inMill |= m;
      const free = opp & ~inMill;
      if (free || this.rules.all_in_mills === "any") return free || opp;
      return 0;
    }

    /** The end that needs no move generation: too few pebbles, a draw by rule. */
    endedByCount() {
      const r = this.rules;
      for (const s of [this.side, this.side ^ 1]) {
        if (this.hand[s] + popcount(this.bb[s]) < r.lose_below) {
          return { winner: s ? "white" : "black", reason: "too-few-pebbles" };
        }
      }
      if (r.repetition_draw !== null && (this.rep.get(this.key()) || 0) >= r.repetition_draw) {
        return { winner: null, reason: "repetition" };
      }
      if (r.quiet_move_limit !== null && this.quiet >= r.quiet_move_limit) {
        return { winner: null, reason: "quiet-moves" };
      }
      return null;
    }

    legal() {
      if (this.endedByCount()) return [];
      const s = this.side, names = this.points;
      if (this.pending) return bits(this.takeable(s ^ 1)).map((p) => "x" + names[p]);
      const own = this.bb[s];
      const empty = this.full & ~(own | this.bb[s ^ 1]);
      let acts = [];
      if (this.hand[s]) {
        acts = bits(empty).map((p) => names[p]);
        if (!this.rules.move_in_placement) return acts;
      }
      const fly = this.flies(s);
      for (const a of bits(own)) {
        for (const b of bits(fly ? empty : this.adj[a] & empty)) acts.push(`${names[a]}-${names[b]}`);
      }
      return acts;
    }

    outcome() {
      const done = this.endedByCount();
      if (done) return done;
      if (this.legal().length) return null;
      const s = this.side;
      if (!(this.full & ~(this.bb[0] | this.bb[1]))) {
        // every pebble placed and none taken: the side to act placed first, and loses
        return this.rules.board_full === "first-loses"
          ? { winner: s ? "white" : "black", reason: "board-full" }
          : { winner: null, reason: "board-full" };
      }
      return this.rules.blocked_loses
        ? { winner: s ? "white" : "black", reason: "blocked" } : { winner: null, reason: "blocked" };
    }

    /** Play one action given in the notation the moves carry (`d6`, `a1-a4`, `xd7`). */
    play(text) {
      if (this.outcome()) throw new RulesError("the game is over");
      if (!this.legal().includes(text)) {
        throw new RulesError(`${text} is not a legal action for ${this.turn} now`);
      }
      this.push(text);
    }

    push(text) {
      const s = this.side, o = s ^ 1, bb = this.bb, r = this.rules;
      const reform = r.no_immediate_reform;
      this.history.push(text);
      if (text[0] === "x") {
        const t = this.index.get(text.slice(1));
        bb[o] &= ~(1 << t);
        const lmo = this.lastMove[o];
        if (reform && lmo !== null && lmo[1] === t) this.lastMove[o] = null;
        this.quiet = 0;
        this.pending -= 1;
        if (this.pending && !this.takeable(o)) this.pending = 0;
        if (!this.pending) this.side = o;
        return;
      }
      let t, rebuilt = false, isMove = false;
      if (!text.includes("-")) {
        t = this.index.get(text);
        bb[s] |= 1 << t;
        this.hand[s] -= 1;
        this.quiet = 0;
        if (reform && this.lastMove[s] !== null) this.lastMove[s] = null;
      } else {
        isMove = true;
        const [from, to] = text.split("-");
        const a = this.index.get(from);
        t = this.index.get(to);
        if (reform) {
          const lm = this.lastMove[s];
          rebuilt = lm !== null && lm[0] === t && lm[1] === a;
          const broke = this.millsAt[a].some(([, m]) => (bb[s] & m) === m);
          if (broke || lm !== null) this.lastMove[s] = broke ? [a, t] : null;
        }
        bb[s] ^= (1 << a) | (1 << t);
        this.quiet += 1;
      }
      const own = bb[s];
      let closed = 0;
      const formed = [];
      for (const [k, m] of this.millsAt[t]) {
        if ((own & m) !== m) continue;
        formed.push(m);
        if (r.mill_capture_limit !== null) {
          const n = this.millCounts[2 * k + s];
          if (n >= r.mill_capture_limit) continue;
          this.millCounts[2 * k + s] = n + 1;
        }
        if (!rebuilt) closed += 1;
      }
      this.lastMills = formed;
      if (closed && this.takeable(o)) {
        this.pending = r.removals === "one-per-mill" ? closed : 1;
      } else {
        this.side = o;
      }
      if (isMove && r.repetition_draw !== null) {
        const key = this.key();
        this.rep.set(key, (this.rep.get(key) || 0) + 1);
      }
    }

    /** Back to the position after the first `plies` actions (a takeback both agreed to). */
    rewind(plies) {
      const actions = this.history.slice(0, plies);
      Object.assign(this, new MorrisGame(this.variant, this.first));
      actions.forEach((a) => this.push(a));
    }

    /** Points of the mills the last placement or move closed. */
    lastMillPoints() {
      const out = new Set();
      this.lastMills.forEach((m) => bits(m).forEach((p) => out.add(this.points[p])));
      return out;
    }

    inHand(side) { return this.hand[side === "black" ? 1 : 0]; }
  }

  root.NavakankariRules = { MorrisGame, RulesError };
})(typeof window !== "undefined" ? window : globalThis);
