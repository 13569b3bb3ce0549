// The browser player: joins a board's online game with its code and plays it by clicking.
// It is one side of the protocol as a board is (PROTOCOL.md): it answers the invitation (and
// the toss), keeps the signed move log, checks every move that arrives with its own copy of
// the rules, and publishes its moves with a retained snapshot and a presence will. The log is
// kept in this browser's storage, so a reload or a closed tab carries on the same game; its
// own retained snapshot on the broker fills it again on another device.
(function () {
  "use strict";
  const P = NavakankariProtocol, R = NavakankariRules, VARIANTS = NAVAKANKARI_VARIANTS;
  const $ = (id) => document.getElementById(id);
  const { _, ngettext, fmt } = NavakankariWords;
  // The page's words: the language chosen here before, else the browser's, from the board's
  // catalogs written beside the page (messages.js).
  const CATALOGS = window.NAVAKANKARI_MESSAGES || {};
  const LANGUAGE = localStorage.getItem("navakankari-language") ||
    NavakankariWords.preferred(Object.keys(CATALOGS));
  if (CATALOGS[LANGUAGE]) NavakankariWords.use(CATALOGS[LANGUAGE]);
  NavakankariWords.translatePage();
  $("language").replaceChildren(...Object.entries(CATALOGS).map(([code, c]) => new Option(c.name, code)));
  $("language").value = LANGUAGE;
  $("language").addEventListener("change", (event) => {
    localStorage.setItem("navakankari-language", event.target.value);
    location.reload();
  });
  const variantName = (name) => (NavakankariWords.catalog.variant_names || {})[name] || name;
  const sideName = (side) => (side === "white" ? _("white") : side === "black" ? _("black") : side);
  const STORE = "navakankari-player:";
  const WAIT_MS = 10000;
  const KEEP_IDS = 200;
  // The largest MQTT packet this page takes (MQTT 5's maximum packet size, which the broker
  // honours by not sending it larger ones). Mosquitto 2.0's websockets listener holds back a
  // packet of 64 KiB or more until the next one (seen with 2.0.11), and the keepalive answer
  // waits behind it, so one large retained message would cut the page off at every
  // reconnection. A snapshot of 250 moves is still under it.
  const MAX_PACKET = 60000;
  const QUIET_MS = 10000;  // waiting for the other's move and hearing nothing: ask (a resync)
  const EVERY_MS = 2000;  // at most one resync asked, and one republishing, in this time
  // Waiting for the toss's reveal: past this, the inviter loses the toss (a forfeit), so
  // withholding a losing reveal cannot help it (as invitation.py's REVEAL_WAIT).
  const REVEAL_WAIT_MS = 30000;
  const SVG = "http://www.w3.org/2000/svg";

  class JoinError extends Error {}

  function say(problem) { $("problem").textContent = problem || ""; }

  /** What went wrong, in this page's language: a protocol fault by its words and places. */
  function said(err) {
    return err instanceof P.ProtocolError ? fmt(_(err.words), err.places) : String(err && err.message);
  }

  function describe(err, url) {
    const text = String((err && err.message) || err || "");
    const low = text.toLowerCase();
    if (low.includes("bad user name or password") || low.includes("not authorized")) {
      return _("the broker refused the login: check the user name and password");
    }
    return text ? fmt(_("cannot reach the broker at {url} ({error})"), { url, error: text })
      : fmt(_("cannot reach the broker at {url}"), { url });
  }

  function connect(settings, options) {
    return mqtt.connect(settings.broker, Object.assign({
      username: settings.username || undefined, password: settings.password || undefined,
      protocolVersion: 5, keepalive: 10, connectTimeout: 5000, reconnectPeriod: 1000,
      properties: { maximumPacketSize: MAX_PACKET },
      // 16 random hex digits: an id anyone could guess would let anyone take it over
      clientId: "navakankari-web-" + P.hex(crypto.getRandomValues(new Uint8Array(8))),
    }, options || {}));
  }

  // -- joining --------------------------------------------------------------------------------
  /** Answer the invitation under `code` (and finish the toss): resolves to the agreement. */
  function join(settings, code) {
    return new Promise((resolve, reject) => {
      const client = connect(settings, { reconnectPeriod: 0 });
      const seen = {};
      const refused = new P.Refusals();
      let timer = null, late = null, settled = false;
      const finish = (error, value) => {  // the first word is the answer
        clearTimeout(timer);
        clearTimeout(late);
        if (settled) return;
        settled = true;
        client.end(true);
        if (error) reject(error); else resolve(value);
      };
      const wait = (missing) => {
        clearTimeout(timer);
        timer = setTimeout(() => finish(new JoinError(missing)), WAIT_MS);
      };
      client.on("error", (err) => finish(new JoinError(describe(err, settings.broker))));
      client.on("close", () => {
        if (!client.connected && !seen.invite) {
          finish(new JoinError(describe(null, settings.broker)));
        }
      });
      client.on("connect", async () => {
        wait(_("no game waits under this code (ended, or mistyped?)"));
        // The join topic first: a retained answer arrives before the invitation, so a
        // second device of the same player carries on the game instead of answering again.
        await client.subscribeAsync(P.gameTopic(code, "join"), { qos: 1 });
        await client.subscribeAsync(P.gameTopic(code, "reveal"), { qos: 1 });
        await client.subscribeAsync(P.gameTopic(code, "invite"), { qos: 1 });
        // Where an inviter of protocol 1 offers the game: named if it is there.
        await client.subscribeAsync(P.olderTopic(code, "invite"), { qos: 1 });
      });
      client.on("message", async (topic, payload) => {
        try {
          if (topic === P.olderTopic(code, "invite")) {
            if (P.fromOlder(code, payload)) finish(new JoinError(_(P.OLDER)));
            return;
          }
          const message = P.unseal(code, topic, payload);
          if (message instanceof P.Rejection && message.name === "old-version") {
            finish(new JoinError(_(message.why)));  // a player of this game, not updated
            return;
          }
          if (message instanceof P.Rejection) {
            // Anyone on the broker may publish here: a message that does not check is
            // counted and waited past, never taken as the answer.
            refused.add(message.name, message.why);
            return;
          }
          const where = message.kind === "forfeit" ? "reveal" : message.kind;
          if (topic !== P.gameTopic(code, where)) {
            refused.add("misplaced", `a ${message.kind} on ${topic.slice(-60)}`);
            return;
          }
          // The toss: the first word on the reveal topic decides (a reveal, or a forfeit).
          if (where === "reveal") {
            if (!seen.word) seen.word = message;
          } else seen[message.kind] = message;
          await advance();
        } catch (err) {
          // (a void toss: the protocol's words, in this page's language)
          finish(err instanceof P.ProtocolError ? new JoinError(said(err)) : err);
        }
      });
      let answered = false;
      async function advance() {
        const invite = seen.invite;
        if (!invite) return;
        if (!answered) {
          answered = true;
          if (!seen.join) {
            const answer = P.sign(code.key, { kind: "join", game: code.game,
              board: settings.name || "a browser", bit: P.randomBit() });
            seen.join = answer;
            await client.publishAsync(P.gameTopic(code, "join"),
              P.seal(code, P.gameTopic(code, "join"), answer), { qos: 1, retain: true });
          }
          if (invite.starts === "toss") {
            clearTimeout(timer);
            late = setTimeout(() => {  // no reveal in time: the inviter loses the toss
              if (seen.word || settled) return;
              const forfeit = P.sign(code.key, { kind: "forfeit", game: code.game,
                board: seen.join.board });
              client.publishAsync(P.gameTopic(code, "reveal"),
                P.seal(code, P.gameTopic(code, "reveal"), forfeit), { qos: 1, retain: true })
                .catch(() => {});
              wait(_("the broker did not carry the toss's forfeit"));
            }, REVEAL_WAIT_MS);
          }
        }
        // Each plays the colour the offer named; the toss decides only who moves first.
        let first = invite.starts, note = "";
        const side = P.OTHER[invite.colour];
        if (invite.starts === "toss") {
          if (!seen.word) return;
          if (seen.word.kind === "forfeit") {
            first = side;
            note = forfeited(invite.colour);
          } else {
            first = P.starter(code.game, invite.commit, seen.word.nonce, seen.word.bit,
              seen.join.bit);
          }
        }
        finish(null, { variant: invite.variant, side, first, opponent: invite.board,
          colour: side, name: seen.join.board, note });
      }
    });
  }

  /** What the page says when the inviter's reveal did not come in time (invitation.py). */
  function forfeited(side) {
    return fmt(_("the inviting board did not reveal its toss within {seconds} s: it loses the toss, so {side} (the joining board) starts"),
      { seconds: REVEAL_WAIT_MS / 1000, side: sideName(P.OTHER[side]) });
  }

  /** Offer a game under a fresh code and wait for a board to join: resolves to the
   * agreement, or to null once `withdrawn()` says so. */
  async function host(settings, variant, side, starts, shown, withdrawn) {
    const code = await P.prepare(P.newCode());
    return new Promise((resolve, reject) => {
      const toss = starts === "toss"
        ? { nonce: P.hex(crypto.getRandomValues(new Uint8Array(16))), bit: P.randomBit() } : null;
      const invite = P.sign(code.key, { kind: "invite", game: code.game, variant, colour: side,
        starts,
        board: settings.name || "a browser",
        commit: toss ? P.commitment(code.game, toss.nonce, toss.bit) : "" });
      const client = connect(settings, { reconnectPeriod: 1000 });
      const refused = new P.Refusals();
      let settled = false;
      const finish = (error, value) => {
        if (settled) return;
        settled = true;
        clearInterval(watch);
        client.end(false);
        if (error) reject(error); else resolve(value);
      };
      const watch = setInterval(() => { if (withdrawn()) finish(null, null); }, 200);
      client.on("error", (err) => finish(new JoinError(describe(err, settings.broker))));
      const where = { invite: P.gameTopic(code, "invite"), join: P.gameTopic(code, "join"),
        reveal: P.gameTopic(code, "reveal") };
      const offered = P.seal(code, where.invite, invite);
      let joined = null, word = null;  // the join, and the first word on the reveal topic
      client.on("connect", async () => {  // every connection: the offer is published again
        // the reveal topic first: a forfeit kept there arrives before the join it answers
        await client.subscribeAsync(where.reveal, { qos: 1 });
        await client.subscribeAsync([where.join, where.invite], { qos: 1 });
        await client.publishAsync(where.invite, offered, { qos: 1, retain: true });
        shown(code);
      });
      client.on("message", async (topic, payload) => {
        try {
          if (topic === where.invite) {
            const found = P.unseal(code, topic, payload);
            if (found instanceof P.Rejection || P.encode(found) !== P.encode(invite)) {
              // cleared or replaced by someone on the broker
              refused.add("replaced", `the offer of game ${code.game} was cleared or ` +
                "replaced on the broker; published again");
              await client.publishAsync(topic, offered, { qos: 1, retain: true });
            }
            return;
          }
          const message = P.unseal(code, topic, payload);
          if (message instanceof P.Rejection) {
            refused.add(message.name, message.why);
            return;
          }
          if (topic === where.reveal) {
            if (!word && (message.kind === "forfeit"
                || (message.kind === "reveal" && toss && message.nonce === toss.nonce))) {
              word = message;
            }
          } else if (topic === where.join && message.kind === "join" && !joined) {
            joined = message;
            if (toss && !word) {
              await client.publishAsync(where.reveal, P.seal(code, where.reveal, P.sign(code.key,
                { kind: "reveal", game: code.game, nonce: toss.nonce, bit: toss.bit })),
              { qos: 1, retain: true });
            }
          }
          if (!joined || (toss && !word)) return;  // the first word on the reveal topic decides
          let first = starts, note = "";
          if (toss && word.kind === "forfeit") {
            first = P.OTHER[side];
            note = forfeited(side);
          } else if (toss) {
            first = P.starter(code.game, invite.commit, toss.nonce, toss.bit, joined.bit);
          }
          finish(null, { code, agreement: { variant, side, first, opponent: joined.board,
            colour: side, name: invite.board, note } });
        } catch (err) {
          refused.add("fault", String(err && err.message));
        }
      });
    });
  }

  // -- the game in play ---------------------------------------------------------------------
  class OnlineGame {
    constructor(settings, code, agreement, actions, kept) {
      this.settings = settings;
      this.code = code;
      // the other player is shown by the name it gave, never as a machine
      const name = String(agreement.opponent || "").replace(/\s+/g, " ").trim().slice(0, 60);
      this.agreement = Object.assign({}, agreement, { opponent: name || "the other player" });
      this.colour = agreement.colour;
      this.other = P.OTHER[this.colour];
      // The colour that moved first. A game kept by an older page whose side differed from
      // its colour named by `first` who started, not which colour: white began those.
      this.first = agreement.side === agreement.colour ? agreement.first : "white";
      const variant = VARIANTS[agreement.variant];
      if (!variant) {
        throw new JoinError(fmt(_("{variant} is played board to board only: this page plays the morris games"),
          { variant: variantName(agreement.variant) }));
      }
      kept = kept || {};
      this.log = P.MoveLog.rebuild(code, new R.MorrisGame(variant, this.first), actions,
        kept.takebacks);
      this.acked = 0;
      this.refused = new P.Refusals();
      this.peerOnline = false;
      this.peerSeen = null;
      this.problem = "";
      this.selected = null;
      this.client = null;
      this.asked = kept.asked || null;  // this player's request waiting for the answer
      this.askedOfUs = null;  // the other's request waiting for ours
      this.retained = kept.asked ? { request: kept.asked } : {};
      this.heard = new Set(kept.heard || []);  // ids of the other's requests already handled
      this.mine = new Set(kept.mine || []);  // ids of this player's own requests
      this.ended = kept.ended || "";  // how the game ended outside its rules, in words
      this.notice = agreement.note || "";  // the other's no to a request; a toss forfeited
      this.theirSnapshot = null;  // the other's last snapshot, tried again as this log grows
      this.clock = () => Date.now();
      this.heardAt = this.clock();  // when a valid message of the other's last came
      this.askedAt = null;  // when this player last asked for a resync
      this.answeredAt = null;  // when it last republished its log for the other
      this.pendingAfter = null;  // a republishing asked for too soon: from this move on
      this.watch = null;
    }

    get rejected() { return this.refused.total; }

    get game() { return this.log.game; }

    save() {
      const { password, ...kept } = this.settings;
      localStorage.setItem(STORE + this.code.game, JSON.stringify({
        settings: kept, code: this.code.text, agreement: this.agreement,
        actions: this.log.moves.map((m) => m.action), asked: this.asked, ended: this.ended,
        takebacks: this.log.takebacks.slice(),
        heard: [...this.heard].slice(-KEEP_IDS), mine: [...this.mine].slice(-KEEP_IDS) }));
    }

    topic(side, what) { return P.topic(this.code, side, what); }

    /** `message` as published on this player's `what` topic: sealed for it. */
    sealed(what, message) { return P.seal(this.code, this.topic(this.colour, what), message); }

    start() {
      const client = this.client = connect(this.settings, {
        will: { topic: this.topic(this.colour, "presence"), payload: "offline", qos: 1,
                retain: true } });
      client.on("connect", async () => {
        this.problem = "";
        await client.subscribeAsync([this.topic(this.other, "#"),
          this.topic(this.colour, "snapshot"), this.topic(this.colour, "request"),
          // where the other would publish if it ran protocol 1: named, not silence
          P.olderTopic(this.code, this.other, "#")], { qos: 1 });
        await client.publishAsync(this.topic(this.colour, "presence"), "online",
          { qos: 1, retain: true });
        await this.publishOutbox();
        // Back after being away: ask for what the other holds rather than trust its retained
        // snapshot, which anyone on the broker may have replaced or deleted.
        this.askedAt = null;
        this.askResync();
        this.draw();
      });
      clearInterval(this.watch);
      this.watch = setInterval(() => {
        try {
          this.checkQuiet();
        } catch (err) {
          this.refuse("fault", `the quiet watch: ${err && err.message}`);
        }
      }, 1000);
      client.on("error", (err) => { this.problem = describe(err, this.settings.broker); this.draw(); });
      client.on("close", () => {
        if (!this.problem) this.problem = _("lost the connection to the broker; trying again");
        this.draw();
      });
      client.on("message", (topic, payload) => this.handle(topic, payload));
      this.draw();
    }

    stop() {  // what is in flight goes first
      clearInterval(this.watch);
      if (this.client) this.client.end(false);
    }

    // -- liveness: a player that hears nothing asks (PROTOCOL.md) ---------------------------
    /** Ask the other for its log if this player waits for its move and has heard nothing for
     * QUIET_MS (nor asked in that time); true if it asked. */
    checkQuiet() {
      const game = this.game;
      if (this.log.forked || this.ended || game.outcome() || game.turn !== this.other) return false;
      const now = this.clock();
      if (now - this.heardAt < QUIET_MS
          || (this.askedAt !== null && now - this.askedAt < QUIET_MS)) return false;
      return this.askResync();
    }

    /** A resync: the number of moves held here, at most once every EVERY_MS. */
    askResync() {
      const now = this.clock();
      if (!this.client || !this.client.connected
          || (this.askedAt !== null && now - this.askedAt < EVERY_MS)) return false;
      this.askedAt = now;
      const resync = P.sign(this.code.key, { kind: "resync", game: this.code.game,
        side: this.colour, after: this.log.moves.length });
      this.client.publishAsync(this.topic(this.colour, "resync"), this.sealed("resync", resync),
        { qos: 1 })
        .catch(() => {});
      return true;
    }

    /** This player's log again for the other (its snapshot and the moves after `after`), at
     * most once every EVERY_MS: one asked for sooner goes out when that time is up, with all
     * that was asked for meanwhile. True if it went out at once. */
    republish(after) {
      if (!this.client || !this.client.connected) return false;
      if (this.pendingAfter !== null) {
        this.pendingAfter = Math.min(this.pendingAfter, after);
        return false;
      }
      const wait = this.answeredAt === null ? 0 : this.answeredAt + EVERY_MS - this.clock();
      if (wait > 0) {
        this.pendingAfter = after;
        setTimeout(() => {
          const from = this.pendingAfter;
          this.pendingAfter = null;
          this.answeredAt = null;
          if (from !== null) this.republish(from);
        }, wait);
        return false;
      }
      this.answeredAt = this.clock();
      const client = this.client, moves = this.log.moves.slice(after);
      this.publishSnapshot().then(async () => {
        for (const move of moves) {
          await client.publishAsync(this.topic(this.colour, "move"), this.sealed("move", move),
            { qos: 1 });
        }
      }).catch(() => {});
      return true;
    }

    async publishOutbox() {
      for (const [what, message] of Object.entries(this.retained)) {
        await this.client.publishAsync(this.topic(this.colour, what), this.sealed(what, message),
          { qos: 1, retain: true });
      }
      await this.publishSnapshot();
      for (const move of this.log.moves.slice(this.acked)) {
        if (move.side === this.colour) {
          await this.client.publishAsync(this.topic(this.colour, "move"), this.sealed("move", move),
            { qos: 1 });
        }
      }
    }

    publishSnapshot() {
      return this.client.publishAsync(this.topic(this.colour, "snapshot"),
        this.sealed("snapshot", this.log.snapshot(this.colour)), { qos: 1, retain: true });
    }

    /** One MQTT message: whatever it holds, it is handled, refused or counted here, and
     * nothing it does can end the player. */
    handle(topic, payload) {
      try {
        this.handleChecked(String(topic), payload);
      } catch (err) {
        this.refuse("fault", `${String(topic).slice(0, 100)}: ${err && err.message}`);
      }
      try {
        this.draw();
      } catch (err) {
        console.error("online: could not draw the game", err);
      }
    }

    handleChecked(topic, payload) {
      if (topic.startsWith(P.olderTopic(this.code, this.other, ""))) {
        // the other side's protocol-1 topics: if a player of this game signed it, the other
        // runs the older version, and is named so; anything else there is noise
        if (P.fromOlder(this.code, payload)) {
          this.problem = _(P.OLDER);
          this.refuse("old-version", P.OLDER);
        }
        return;
      }
      const parts = topic.split("/");
      const what = parts[parts.length - 1], side = parts[parts.length - 2];
      if (!P.SIDES.includes(side) || topic !== this.topic(side, what)) {
        this.refuse("misplaced", `a message on ${topic.slice(-60)}`);
        return;
      }
      if (what === "presence") {  // unsigned by design: it only says who is connected
        const said = payload.length <= 7 ? String(payload) : "";
        if (said !== "online" && said !== "offline") {
          this.refuse("malformed", "presence: neither online nor offline");
        } else if (side === this.other) {
          const back = said === "online" && !this.peerOnline;
          this.peerOnline = said === "online";
          this.peerSeen = new Date();
          if (back) this.republish(this.acked);  // what it missed while away
        }
        return;
      }
      if (!payload.length && (what === "request" || what === "answer")) return;  // cleared
      const message = P.unseal(this.code, topic, payload);
      if (message instanceof P.Rejection) {
        this.refuse(message.name, `${what}: ${message.why}`);
        return;
      }
      if (message.kind !== what) {
        this.refuse("misplaced", `a ${message.kind} on the ${what} topic`);
        return;
      }
      if (message.side !== side && what !== "move") {  // a move: its log checks its side
        this.refuse("misplaced", `${side}'s ${what} topic carried a ${message.kind} of ` +
          message.side);
        return;
      }
      if (side === this.other) {
        this.peerSeen = new Date();
        this.heardAt = this.clock();
      }
      const before = this.log.moves.length;
      if (what === "snapshot" && side === this.other) {
        this.theirSnapshot = message;
        this.acked = Math.max(this.acked, Math.min(message.moves.length, this.log.moves.length));
        this.log.catchUp(message, this.colour).forEach((got) => this.after(got));
        this.log.forkSeen(message.moves);
      } else if (what === "snapshot") {
        // This player's own log, kept on the broker: fills a fresh device.
        this.log.catchUp(message).forEach((got) => this.after(got));
      } else if (what === "move" && side === this.other) {
        this.after(this.log.receive(message, this.other));
      } else if (what === "resync" && side === this.other) {
        const held = this.log.moves.length;
        this.acked = Math.max(this.acked, Math.min(message.after, held));
        if (message.after < held) this.republish(message.after);
        else if (message.after > held) this.askResync();  // it holds a move never heard here
      } else if (what === "request" && side === this.other) {
        this.requested(message);
      } else if (what === "answer" && side === this.other) {
        this.answered(message);
      } else if (what === "request") {
        this.ownRequest(message);
      } else {
        this.refuse("misplaced", `a ${message.kind} of this player's own on ${what}`);
        return;
      }
      if (this.log.moves.length !== before) {
        // the other's snapshot may hold moves that waited for these (a fresh device)
        if (this.theirSnapshot && !this.log.forked) {
          this.log.catchUp(this.theirSnapshot, this.colour).forEach((got) => this.after(got));
        }
        this.save();
        if (this.client && this.client.connected) this.publishSnapshot().catch(() => {});
      }
    }

    after(got) {
      if (got.verdict === P.GAP) this.askResync();  // moves went missing: ask for them
      if (got.verdict === P.FORK) {  // not a dropped message: the game stopped, shown here
        if (!this.forkSaid) console.error(`online: the games differ: ${got.why}`);
        this.forkSaid = true;
        this.save();
      } else if (got.verdict === P.REJECTED || got.verdict === P.STALE) {
        this.refuse(got.verdict, got.why);
      }
    }

    refuse(name, why) { this.refused.add(name, why); }

    /** This player's action, checked by the rules, recorded, then published. */
    act(action) {
      const move = this.log.record(action);
      this.save();
      this.selected = null;
      if (this.client && this.client.connected) {
        this.client.publishAsync(this.topic(this.colour, "move"), this.sealed("move", move),
          { qos: 1 }).then(() => this.publishSnapshot()).catch(() => {});
      }
      this.draw();
    }

    // -- requests: takeback, new game, resigning (PROTOCOL.md) --------------------------------
    /** Publish a request or an answer (retained; sent again on every reconnection). */
    async publishRetained(what, message) {
      this.retained[what] = message;
      if (this.client && this.client.connected) {
        await this.client.publishAsync(this.topic(this.colour, what), this.sealed(what, message),
          { qos: 1, retain: true }).catch(() => {});
      }
    }

    /** Where this player's last turn began: a takeback keeps the moves before it. */
    turnStart() {
      const moves = this.log.moves;
      let i = moves.length - 1;
      while (i >= 0 && moves[i].side !== this.colour) i--;
      while (i > 0 && moves[i - 1].side === this.colour) i--;
      return i;
    }

    /** Ask the other player: to take back this player's last turn (or, at a fork, to the
     * last move both hold: `keep`), for a new game; or resign. */
    ask(what, keep) {
      // at a fork: a takeback to what both games share, or resigning (PROTOCOL.md)
      const forkTakeback = what === "takeback" && this.log.forked && keep !== undefined;
      if (this.ended || (this.log.forked && !forkTakeback && what !== "resign")) {
        throw new P.ProtocolError(_("the game is over"));
      }
      if (this.asked && what !== "resign") {
        throw new P.ProtocolError(this.asked.what === "takeback"
          ? _("the other player has not answered the takeback yet")
          : _("the other player has not answered the new game yet"));
      }
      // the moves the other holds: this log's, or at a fork those of the other's snapshot
      const at = forkTakeback && this.theirSnapshot ? this.theirSnapshot.moves.length
        : this.log.moves.length;
      if (keep === undefined) keep = what === "takeback" ? this.turnStart() : at;
      if (what === "takeback" && keep < 0) throw new P.ProtocolError(_("you have no turn to take back"));
      const request = P.sign(this.code.key, { kind: "request", game: this.code.game,
        side: this.colour, what, at, keep, era: this.log.era,
        id: P.hex(crypto.getRandomValues(new Uint8Array(8))) });
      this.mine.add(request.id);
      this.publishRetained("request", request);
      if (what === "resign") {
        this.ended = fmt(_("you resigned: {side} wins"), { side: sideName(this.other) });
      } else {
        this.asked = request;
      }
      this.save();
      this.draw();
    }

    /** The fork's other way out: resigning, which ends the game on both sides. */
    endAtFork() { this.ask("resign"); }

    async answer(accept) {
      const request = this.askedOfUs;
      if (!request) return;
      this.askedOfUs = null;
      this.draw();
      await this.publishRetained("answer", P.sign(this.code.key, { kind: "answer",
        game: this.code.game, side: this.colour, id: request.id, accept: accept ? 1 : 0 }));
      if (accept) this.agreed(request);
      this.draw();
    }

    /** The other's request, heard once (the ids heard are kept in storage). A takeback or
     * new game names the position it is about: one made at another number of moves than
     * this log holds (the game moved on, or an old request published again) is refused and
     * answered no at once, so the asker does not wait. At a fork, a takeback to moves this
     * log holds is the way out both can agree to. */
    requested(request) {
      if (this.heard.has(request.id) || this.ended) return;
      this.heard.add(request.id);
      this.save();
      const held = this.log.moves.length;
      const forkTakeback = this.log.forked && request.what === "takeback";
      if (request.what !== "resign" && (request.keep > held || request.era !== this.log.era)
          || (request.what !== "resign" && !forkTakeback && request.at !== held)) {
        this.refuse("refused", `a ${request.what} request made at move ${request.at} of era ` +
          `${request.era}, here the game is at move ${held} of era ${this.log.era}`);
        this.publishRetained("answer", P.sign(this.code.key, { kind: "answer",
          game: this.code.game, side: this.colour, id: request.id, accept: 0 }));
      } else if (request.what === "resign") {
        this.ended = fmt(_("{opponent} resigned: {side} wins"),
          { opponent: this.agreement.opponent, side: sideName(this.colour) });
        this.save();
      } else {
        this.askedOfUs = request;
      }
    }

    /** A request on this player's own topic: its own, or one someone holding the code
     * published in its name, which is refused, cleared from the broker and shown. */
    ownRequest(request) {
      if (this.mine.has(request.id)) return;
      this.mine.add(request.id);  // said once
      this.save();
      const disowned = {
        takeback: _("A takeback request you never made was published in your name by someone holding the game's code; {opponent} may have acted on it."),
        "new-game": _("A new-game request you never made was published in your name by someone holding the game's code; {opponent} may have acted on it."),
        resign: _("A resignation you never made was published in your name by someone holding the game's code; {opponent} may have acted on it."),
      };
      this.notice = fmt(disowned[request.what] || disowned.takeback,
        { opponent: this.agreement.opponent });
      this.refuse("disowned", this.notice);
      if (this.client && this.client.connected) {  // this player's own request, or nothing
        const own = this.retained.request;
        this.client.publishAsync(this.topic(this.colour, "request"),
          own ? this.sealed("request", own) : "", { qos: 1, retain: true }).catch(() => {});
      }
    }

    answered(answer) {
      const request = this.asked;
      if (!request || answer.id !== request.id) return;
      this.asked = null;
      delete this.retained.request;
      if (this.client && this.client.connected) {  // settled: cleared from the broker
        this.client.publishAsync(this.topic(this.colour, "request"), "", { qos: 1, retain: true })
          .catch(() => {});
      }
      if (answer.accept) this.agreed(request);
      else {
        this.notice = fmt(request.what === "takeback" ? _("{opponent} declined the takeback")
          : _("{opponent} declined the new game"), { opponent: this.agreement.opponent });
      }
      this.save();
      this.draw();
    }

    agreed(request) {
      this.notice = "";
      if (request.what === "takeback") {
        this.log.truncate(request.keep);
        this.selected = null;
        this.save();
        if (this.client && this.client.connected) this.publishSnapshot().catch(() => {});
        this.askedAt = null;
        this.askResync();  // what the other made in the new era before the answer came
      } else if (request.what === "new-game") {
        // The next game: its code derived from this one's, the same variant and colours,
        // and the same colour moving first (as the board begins it).
        const next = new OnlineGame(this.settings, P.nextCode(this.code),
          Object.assign({}, this.agreement, { side: this.colour, first: this.first }), []);
        this.stop();
        localStorage.removeItem(STORE + this.code.game);
        current = next;
        next.save();
        history.replaceState(null, "", `#code=${next.code.text}&broker=${encodeURIComponent(this.settings.broker)}`);
        next.start();
      }
    }

    // -- clicking ---------------------------------------------------------------------------
    click(point) {
      const game = this.game;
      if (game.turn !== this.colour || game.outcome() || this.log.forked || this.ended) return;
      const legal = game.legal();
      if (legal.includes(point) || legal.includes("x" + point)) {
        this.act(legal.includes(point) ? point : "x" + point);
      } else if (this.selected && legal.includes(`${this.selected}-${point}`)) {
        this.act(`${this.selected}-${point}`);
      } else if (legal.some((a) => a.startsWith(point + "-"))) {
        this.selected = this.selected === point ? null : point;
        this.draw();
      }
    }

    // -- drawing ------------------------------------------------------------------------------
    draw() {
      if (this !== current) return;  // a game left for the next one draws nothing
      const game = this.game, a = this.agreement;
      $("join-form").hidden = true;
      $("game").hidden = false;
      $("players").textContent = fmt(this.colour === this.first
        ? _("You play {side} (first) against {opponent} ({other}), {variant}; game {code}")
        : _("You play {side} (second) against {opponent} ({other}), {variant}; game {code}"),
      { side: sideName(this.colour), opponent: a.opponent, other: sideName(this.other),
        variant: variantName(a.variant), code: this.code.text });
      const outcome = game.outcome();
      let turn;
      const fork = this.log.forked && !this.ended ? this.log.fork : null;
      if (fork) {
        turn = fmt(_("The games differ: {opponent} holds other moves than this page from move " +
          "{n}, so its moves are no longer shown."), { opponent: a.opponent, n: fork.common + 1 });
      } else if (this.ended) turn = this.ended[0].toUpperCase() + this.ended.slice(1) + ".";
      else if (outcome) {
        turn = fmt(outcome.winner === null ? _("Drawn ({reason}).")
          : outcome.winner === this.colour ? _("You won ({reason}).") : _("{opponent} won ({reason})."),
        { opponent: a.opponent, reason: outcome.reason });
      } else if (game.turn === this.colour) {
        turn = game.pending ? _("Your mill: take one of their pebbles.")
          : game.inHand(this.colour) ? fmt(_("Your turn: place a pebble ({n} in hand)."),
            { n: game.inHand(this.colour) })
            : _("Your turn: move a pebble.");
      } else turn = fmt(_("{opponent} to play."), { opponent: a.opponent });
      $("turn").textContent = turn;
      const connected = this.client && this.client.connected;
      const peer = fmt(this.peerOnline ? _("{opponent} is connected")
        : this.peerSeen ? _("{opponent} offline since {time}") : _("{opponent} offline"),
      { opponent: a.opponent, time: this.peerSeen ? this.peerSeen.toLocaleTimeString() : "" });
      $("link").textContent = [connected ? _("connected") : this.problem || _("connecting…"), peer,
        fmt(_("move {n}, {acked} acknowledged"), { n: this.log.moves.length, acked: this.acked }),
        ...(this.rejected ? [fmt(ngettext("{n} message dropped", "{n} messages dropped",
          this.rejected), { n: this.rejected })] : [])].join(" · ");
      $("link").className = connected ? "" : "offline";
      const theirs = { takeback: _("{opponent} asks to take back."),
        "new-game": _("{opponent} asks for a new game.") };
      const ours = { takeback: _("You asked to take back; waiting for {opponent}."),
        "new-game": _("You asked for a new game; waiting for {opponent}.") };
      const asked = this.askedOfUs || this.asked;
      $("request").hidden = !asked && !this.notice;
      $("request-text").textContent = this.askedOfUs
        ? fmt(theirs[this.askedOfUs.what] || this.askedOfUs.what, { opponent: a.opponent })
        : this.asked ? fmt(ours[this.asked.what] || this.asked.what, { opponent: a.opponent })
          : this.notice || "";
      $("accept").hidden = $("decline").hidden = !this.askedOfUs;
      $("asks").hidden = Boolean(this.ended || this.log.forked);
      $("fork").hidden = !fork;
      if (fork) {
        $("fork-takeback").textContent = fork.common
          ? fmt(_("Take back to move {n}"), { n: fork.common }) : _("Take back every move");
        $("fork-takeback").disabled = Boolean(this.asked);
      }
      this.drawBoard();
      const list = $("moves");
      list.replaceChildren(...this.log.moves.map((m, i) => {
        const li = document.createElement("li");
        li.textContent = m.action;
        li.dataset.side = m.side;
        const late = this.first === "black" ? 1 : 0;  // white's first move is 2. after 1... d6
        li.dataset.number = m.side === "white" ? `${Math.floor((i + late) / 2) + 1}.`
          : i === 0 ? "1..." : "";
        if (fork && i >= fork.common) li.className = "disputed";
        return li;
      }));
    }

    drawBoard() {
      const game = this.game, svg = $("board");
      const cols = game.coordinates.map((c) => c[0]), rows = game.coordinates.map((c) => c[1]);
      const span = Math.max(...cols, ...rows) + 1, step = 60, pad = 40;
      const size = pad * 2 + step * (span - 1);
      const xy = (p) => {
        const [c, r] = game.coordinates[game.index.get(p)];
        return [pad + c * step, pad + (span - 1 - r) * step];
      };
      svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
      const nodes = [];
      for (const line of game.lines) {
        for (let i = 0; i + 1 < line.length; i++) {
          const [x1, y1] = xy(line[i]), [x2, y2] = xy(line[i + 1]);
          const el = document.createElementNS(SVG, "line");
          Object.entries({ x1, y1, x2, y2 }).forEach(([k, v]) => el.setAttribute(k, v));
          nodes.push(el);
        }
      }
      const mine = game.turn === this.colour && !game.outcome() && !this.log.forked && !this.ended;
      const legal = mine ? game.legal() : [];
      const last = this.log.moves[this.log.moves.length - 1];
      const lastTheirs = last && last.side === this.other && !this.log.forked
        ? this.theirPoints() : new Set();
      const mills = game.lastMillPoints();
      for (const p of game.points) {
        const [x, y] = xy(p);
        const g = document.createElementNS(SVG, "g");
        g.setAttribute("class", "point");
        g.dataset.point = p;
        const colour = game.at(p);
        const classes = ["point"];
        if (legal.includes(p) || (this.selected && legal.includes(`${this.selected}-${p}`))) classes.push("choice");
        if (legal.includes("x" + p)) classes.push("takeable");
        if (this.selected === p) classes.push("selected");
        if (lastTheirs.has(p)) classes.push("theirs");
        if (mills.has(p)) classes.push("mill");
        g.setAttribute("class", classes.join(" "));
        const add = (tag, attrs) => {
          const el = document.createElementNS(SVG, tag);
          Object.entries(attrs).forEach(([k, v]) => el.setAttribute(k, v));
          g.appendChild(el);
          return el;
        };
        add("circle", { cx: x, cy: y, r: 6, class: "spot" });
        add("circle", { cx: x, cy: y, r: 24, class: "ring" });
        if (colour) add("circle", { cx: x, cy: y, r: 17, class: `pebble ${colour}` });
        add("text", { x: x + 8, y: y + 18 }).textContent = p;
        add("circle", { cx: x, cy: y, r: 26, class: "hit" });
        g.addEventListener("click", () => this.click(p));
        nodes.push(g);
      }
      svg.replaceChildren(...nodes);
    }

    /** The points of the other side's last turn (its move and any removal), lit in the
     * other player's own colour as a board lights the move its hands must carry out. */
    theirPoints() {
      const out = new Set();
      for (let i = this.log.moves.length - 1; i >= 0 && this.log.moves[i].side === this.other; i--) {
        this.log.moves[i].action.replace(/^x/, "").split("-").forEach((p) => out.add(p));
      }
      return out;
    }
  }

  // -- the page -------------------------------------------------------------------------------
  let current = null;

  async function begin(settings) {
    say("");
    let code;
    try {
      code = await P.prepare(P.parseCode(settings.code));
    } catch (err) {
      say(said(err));
      return;
    }
    if (!/^wss?:\/\//.test(settings.broker)) {
      say(_("the broker is a ws:// or wss:// address (the broker's websockets listener)"));
      return;
    }
    sessionStorage.setItem(STORE + "password", settings.password || "");
    const kept = JSON.parse(localStorage.getItem(STORE + code.game) || "null");
    try {
      let agreement, actions = [];
      if (kept) {
        agreement = kept.agreement;
        actions = kept.actions;
      } else {
        $("problem").textContent = _("joining…");
        agreement = await join(settings, code);
        say("");
      }
      current = new OnlineGame(Object.assign({}, settings, { name: agreement.name }), code,
        agreement, actions, kept);
      current.save();
      history.replaceState(null, "", `#code=${code.text}&broker=${encodeURIComponent(settings.broker)}`);
      current.start();
    } catch (err) {
      say(err instanceof JoinError || err instanceof P.ProtocolError || err instanceof R.RulesError
        ? said(err) : fmt(_("could not join: {error}"), { error: err }));
    }
  }

  function settingsFromForm() {
    const form = new FormData($("join-form"));
    return Object.fromEntries(["code", "broker", "username", "password", "name"].map(
      (k) => [k, String(form.get(k) || "").trim()]));
  }

  let withdrawing = false;

  async function invite(settings) {
    if (!/^wss?:\/\//.test(settings.broker)) {
      say(_("the broker is a ws:// or wss:// address (the broker's websockets listener)"));
      return;
    }
    const form = new FormData($("join-form"));
    say("");
    withdrawing = false;
    try {
      const made = await host(settings, form.get("variant"), form.get("side"), form.get("starts"),
        (code) => {
          $("waiting-code").textContent = code.text;
          $("waiting").hidden = false;
          $("join-form").hidden = true;
        }, () => withdrawing);
      $("waiting").hidden = true;
      if (!made) {
        $("join-form").hidden = false;
        return;
      }
      sessionStorage.setItem(STORE + "password", settings.password || "");
      current = new OnlineGame(settings, made.code, made.agreement, []);
      current.save();
      history.replaceState(null, "", `#code=${made.code.text}&broker=${encodeURIComponent(settings.broker)}`);
      current.start();
    } catch (err) {
      $("waiting").hidden = true;
      $("join-form").hidden = false;
      say(err instanceof JoinError || err instanceof P.ProtocolError ? said(err)
        : fmt(_("could not invite: {error}"), { error: err }));
    }
  }

  $("join-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const settings = settingsFromForm();
    if (event.submitter && event.submitter.value === "invite") invite(settings);
    else begin(settings);
  });
  $("withdraw").addEventListener("click", () => { withdrawing = true; });
  $("variant").replaceChildren(...Object.keys(VARIANTS).sort().map((v) => new Option(variantName(v), v)));
  $("variant").value = "nine-mens-morris";

  $("asks").addEventListener("click", (event) => {
    const what = event.target.dataset && event.target.dataset.ask;
    if (!what || !current) return;
    if (what === "resign" && !confirm(_("Resign this game? It ends for both players."))) return;
    try {
      current.ask(what);
      say("");
    } catch (err) {
      say(said(err));
    }
  });
  $("fork-takeback").addEventListener("click", () => {
    if (!current || !current.log.forked) return;
    try {
      current.ask("takeback", current.log.fork.common);
      say("");
    } catch (err) {
      say(said(err));
    }
  });
  $("fork-end").addEventListener("click", () => current && current.log.forked && current.endAtFork());
  $("accept").addEventListener("click", () => current && current.answer(true));
  $("decline").addEventListener("click", () => current && current.answer(false));

  $("leave").addEventListener("click", () => {
    if (!current) return;
    current.stop();
    localStorage.removeItem(STORE + current.code.game);
    current = null;
    location.hash = "";
    location.reload();
  });

  // A link from a board's page: #code=...&broker=... (a fragment never reaches a web server).
  const hash = new URLSearchParams(location.hash.slice(1));
  $("code").value = hash.get("code") || "";
  $("broker").value = hash.get("broker") || `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}`;
  const last = JSON.parse(localStorage.getItem(STORE + "last") || "null");
  if (last) {
    $("username").value = last.username || "";
    $("name").value = last.name || "";
  }
  $("join-form").addEventListener("submit", () => {
    const s = settingsFromForm();
    localStorage.setItem(STORE + "last", JSON.stringify({ username: s.username, name: s.name }));
  });
  // A reload carries on a game kept here (the password asked again only in a new tab).
  if (hash.get("code")) {
    try {
      const code = P.parseCode(hash.get("code"));
      const kept = JSON.parse(localStorage.getItem(STORE + code.game) || "null");
      const password = sessionStorage.getItem(STORE + "password");
      if (kept && password !== null) begin(Object.assign({}, kept.settings, { password, code: code.text }));
    } catch (err) {
      say(said(err));
    }
  }
  window.navakankariPlayer = { current: () => current };
})();
