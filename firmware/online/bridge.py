"""A session's game played against a board far away, through its link.

This board's actions, once the session has committed them (stored, so a power cut loses
nothing acknowledged), are recorded in the move log and sent. The other board's actions arrive
through the log's checks and are shown as moves for the hands here to carry out, as a remote
player's are; when the hands have done them the session commits them like any other.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from ..core.session import Session
from ..core.update import Update
from .link import OnlineLink
from .messages import Move

log = logging.getLogger(__name__)


class OnlineBridge:
    """Keeps one session's game and one link's move log the same game."""

    def __init__(self, session: Session, link: OnlineLink, clock: Callable[[], float], *,
                 on_change: Callable[[], None] | None = None) -> None:
        """`on_change`: told when an arrived move changed what the board shows (the daemon
        wakes its loop to light it)."""
        self.session = session
        self.link = link
        self.clock = clock
        self.on_change = on_change
        self.pending: list[str] = []  #: arrived, waiting for the hands here
        self._sends: set[asyncio.Task[None]] = set()
        link.on_move = self._arrived
        link.on_fork = self._forked
        self._unsubscribe = session.subscribe(self._update)

    def close(self) -> None:
        self._unsubscribe()
        for task in self._sends:
            task.cancel()

    def reset(self) -> None:
        """The game went back (a takeback both players agreed to): what waits for the hands
        here is what the log holds beyond the game here (nothing, unless it went back to
        before a fork the other's moves had not been carried out up to), shown again."""
        self.pending = [m.action for m in
                        self.link.moves.moves[len(self.session.game.history):]]
        self._show()

    async def drain(self) -> None:
        """Wait until every move handed to the link has gone out (or waits in the log)."""
        while self._sends:
            await asyncio.gather(*list(self._sends), return_exceptions=True)

    def _forked(self) -> None:
        """The two games differ: the other board's moves not carried out here are no longer
        shown (which of the two games is the real one, the players settle: a takeback to
        the last move both share, or the end of the game)."""
        if self.pending:
            log.warning("online: %s no longer shown: the two games differ",
                        " ".join(self.pending))
        self.pending.clear()
        self.session.answers.withdraw_remote(self.clock())
        if self.on_change is not None:
            self.on_change()

    def _arrived(self, move: Move) -> None:
        self.pending.append(move.action)
        self._show()

    def _show(self) -> None:
        if not self.pending:
            return
        token = self.pending[0] + "".join(self.pending[1:])  # a move and its removals
        try:
            self.session.answers.remote_move(token, self.clock())
        except ValueError as exc:
            log.warning("online: %s cannot be shown yet: %s", token, exc)
            return
        if self.on_change is not None:
            self.on_change()

    def _update(self, update: Update) -> None:
        if update.reason != "actions":
            return
        # Told once stored (`Session.subscribe`): the game may have gone on since, so the
        # update's own ply and actions say what was committed.
        logged = self.link.moves.moves
        first = update.ply - len(update.actions)
        for i, text in enumerate(update.actions, first):
            if i < len(logged):  # the other board's action, now carried out here
                if logged[i].action != text:
                    log.error("online: the board committed %s where move %d is %s", text,
                              i + 1, logged[i].action)
                elif self.pending and self.pending[0] == text:
                    self.pending.pop(0)
                continue
            if self.link.moves.forked:  # the page says where the games differ
                log.warning("online: %s is not sent: the two games differ", text)
                continue
            move = self.link.moves.record(text)
            task = asyncio.get_running_loop().create_task(self.link.send(move))
            self._sends.add(task)
            task.add_done_callback(self._sends.discard)
