"""The daemon: one asyncio loop owns the board, the session, the store and the LEDs.

Sensor callbacks arrive on other threads and are handed in with `call_soon_threadsafe`.
Each turn the loop hands the session the edges since the last turn and the time, and gets
back one `Turn` saying all it must do (ask the computer or the advice worker, the frame,
the brightness, the next deadline); it asks the session nothing else. The loop sleeps until
the next thing that can happen: a sensor event, a tracker deadline, an animation frame, a
computer move, the watchdog. With nothing pending and nothing animating it sleeps until the
watchdog, so an idle board costs next to no CPU. SIGTERM and SIGINT end the loop; the LEDs
go dark and the store is closed on the way out.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import gc
import logging
import signal
import threading
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any

from navakankari.engine.boards import BOARDS
from navakankari.engine.game import Game, Side
from navakankari.engine.player import ChoosesActions, close_player
from navakankari.engine.presets import preset
from navakankari.hal.board import BoardHardware
from navakankari.hal.scheduling import LateThreads, Scheduling
from navakankari.hal.sensors import SensorEvent
from navakankari.hal.words import N_, Phrase

from ..core import lights
from ..core.menu import layout as menu_layout
from ..core.menu import playable
from ..core.players import PlayerSpec, computer_turn, failure_phrase, player_for
from ..core.broker import ComputerRequest
from ..core.session import Session
from ..core.status import Status
from ..core.turn import Turn
from ..online.play import OnlinePlay
from ..store.database import Store, hold_store
from ..store.recovery import open_store
from ..store.writer_lock import WriterLock
from .advice import AdviceService
from .config import Config
from .notify import Notifier

if TYPE_CHECKING:
    from .speaking import Speech

log = logging.getLogger(__name__)

EVENT_FLUSH = 5.0
"""Seconds between writes of buffered raw sensor events (actions are written at once)."""
SHUTDOWN_TIMEOUT = 5.0
LED_RETRY = 0.5
"""Seconds between tries of a frame the LEDs failed to take (a slow SPI transfer's timeout, a
driver error): the game goes on, and the lights catch up when a write succeeds again."""
WRITE_STUCK = 120.0
"""Seconds a store write may take before the loop deems the writer stuck and stops feeding
the watchdog (`Daemon._while_writing`): four times the slowest sync seen on a dying SD
card (30 s), far beyond a busy disk's (0.9-3.5 s)."""
LEDS_FAILED = N_("the LEDs could not be written ({problem}); trying again")
"""The notice beside the game while the LEDs fail."""


class BoardMismatchError(RuntimeError):
    """The wiring profile's points do not cover the variant's board."""


class Alarm:
    """What the loop sleeps on: `set()` by a sensor event, a change from outside or stop,
    else the time it was told. One future and one timer a turn, where asyncio.wait_for on an
    Event adds a task: at rest a turn of the loop is most of what the board costs."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._set = False
        self._waiter: asyncio.Future[None] | None = None

    def set(self) -> None:
        self._set = True
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def clear(self) -> None:
        self._set = False

    def is_set(self) -> bool:
        return self._set

    async def wait(self, timeout: float | None) -> None:
        """Until set, or `timeout` seconds (None: until set)."""
        if self._set:
            return
        waiter = self._waiter = self._loop.create_future()
        timer = None if timeout is None else self._loop.call_later(timeout, _wake_up, waiter)
        try:
            await waiter
        finally:
            self._waiter = None
            if timer is not None:
                timer.cancel()


def _wake_up(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class Daemon:
    """Run one board. `board` is an opened hal Board (the daemon closes it).

    `services` are coroutines started in the loop once the session exists (the web
    companion: it reads `daemon.session`, calls its methods with `daemon.now()`), and
    cancelled on shutdown.
    """

    def __init__(
        self,
        config: Config,
        board: BoardHardware,
        *,
        store: Store | None = None,
        store_lock: WriterLock | None = None,
        clock: Callable[[], float] = time.monotonic,
        notifier: Notifier | None = None,
        player_factory: Callable[[PlayerSpec], ChoosesActions] = player_for,
        sim_script: list[str] | None = None,
        services: Sequence[Callable[["Daemon"], Coroutine[Any, Any, None]]] = (),
        seed: int = 0,
        start_named: bool = False,
        freeze_heap: bool = False,
    ) -> None:
        """`seed`: with the time of the hand's last edge, decides the menu's tosses (so a
        recording replays to the same toss). `start_named`: the configured game was asked
        for by name and starts without the menu (Session). `freeze_heap`: in a process of
        its own, what the start made is left out of the collector's full passes (gc.freeze):
        one such pass over the engine's tables took 26 ms with every core busy, a late light.
        `store_lock`: the lock on the configured store, held already (`sim` chose the store
        by it); else the daemon takes it, and a store another board writes is refused
        (StoreInUseError) before anything is read from it."""
        self.config = config
        self.board = board
        self.clock = clock
        self.notifier = notifier or Notifier()
        self.player_factory = player_factory
        self.sim_script = sim_script
        self.services = tuple(services)
        self.seed = seed
        self.start_named = start_named
        self.freeze_heap = freeze_heap
        self._cap = 1.0  #: the wiring profile's brightness cap
        self._brightness = 1.0  #: the fraction of it chosen on the board
        self.store_notice: Phrase | None = None  #: why the previous game could not be resumed
        self.led_failure: Phrase | None = None  #: why the last LED write failed, until one works
        self.led_failures = 0  #: LED writes that failed since start
        self._led_retry: float | None = None
        self.late_threads = LateThreads()  #: the loop's priority for threads started later
        if store is None:
            lock = store_lock if store_lock is not None else hold_store(config.store_file())
            try:
                store, self.store_notice = open_store(config.store_file(), lock=lock,
                                                      events_kept=config.store_events)
            except BaseException:
                lock.release()
                raise
        # The store writes in a thread of its own: a synced write (0.9-3.5 s on a busy
        # disk) must not stop the loop; what it acknowledges waits for it (`_while_writing`).
        store.write_behind(Scheduling.current().apply)
        self.store = store
        self.session: Session | None = None
        self.online: OnlinePlay | None = None  #: online play, when a broker is configured
        self.speech: Speech | None = None  #: spoken announcements (speaking.py)
        self.exit_status = 0  #: what run() returns; a required service that fails sets it
        self.stop_event: asyncio.Event | None = None
        self.frames_shown = 0
        self.wakeups = 0  #: turns of the loop: what a resting board costs, with the frames
        self.last_frame: dict[str, tuple[int, int, int]] = {}
        self._frame_listeners: list[Callable[[], None]] = []
        self._wake: Alarm | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._players: dict[str, ChoosesActions] = {}
        self._thinking: tuple[ComputerRequest, asyncio.Future[Any], threading.Event] | None = None
        # Threads take the loop's scheduling: one preempted while it holds the interpreter's
        # lock would hold up a realtime loop (navakankari.hal.scheduling).
        self._executor = concurrent.futures.ThreadPoolExecutor(
            1, thread_name_prefix="computer", initializer=Scheduling.current().apply)
        self._tasks: list[asyncio.Task[Any]] = []
        self._advice: AdviceService | None = None  #: assistance, made in a worker process
        self._edges: list[SensorEvent] = []  #: sensor edges for the session's next turn
        self._turning = False  #: the session's turn is under way
        #: what the frame showed once stored (`_keep_lit`): a key, a copy of the game, a status
        self._lit: tuple[tuple[int, int, str | None], Game, Status] | None = None

    # -- the loop ----------------------------------------------------------------------------
    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        self._loop = loop
        self.stop_event = asyncio.Event()
        self._wake = Alarm(loop)
        loop.set_default_executor(concurrent.futures.ThreadPoolExecutor(
            thread_name_prefix="daemon", initializer=Scheduling.current().apply))
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                loop.add_signal_handler(sig, self.stop)
            except (NotImplementedError, RuntimeError):  # not the main thread
                pass
        try:
            self._open()
            if self.freeze_heap:
                gc.collect()
                gc.freeze()
            # The board's libraries have started their threads by now: a realtime loop
            # shares its priority with them, and with those started later (no-op otherwise).
            self.late_threads.share()
            self.notifier.ready(f"{self.config.game_variant}: watching the board")
            log.info("ready")
            await self._serve()
        finally:
            await self._shutdown()
        return self.exit_status

    def stop(self) -> None:
        """End the loop (the signal handler, or a test)."""
        log.info("stopping")
        if self.stop_event is not None:
            self.stop_event.set()
        if self._wake is not None:
            self._wake.set()

    def _open(self) -> None:
        config = self.config
        rules = preset(config.game_variant)
        sensors = self.board.sensors
        mismatch = config.board_mismatch(sensors.points)
        if mismatch:
            raise BoardMismatchError(mismatch)
        loop = self._loop
        assert loop is not None

        def on_event(event: SensorEvent) -> None:  # any thread
            loop.call_soon_threadsafe(self._on_event, event)

        # Watch first, then read: an edge between the two is both in the reading and queued
        # (queued events run after this method, and a repeated state changes nothing), so
        # none is lost.
        sensors.start(on_event)
        occupied = sensors.read()
        players = {Side.WHITE: config.game_white, Side.BLACK: config.game_black}
        settings = config.tracker_settings()
        self.session = Session(rules, players, settings=settings, store=self.store,
                               occupied=occupied, now=self.clock(),
                               menu=config.menu_settings(), variants=playable(sensors.points),
                               online=bool(config.online_broker),
                               seed=self.seed, hints_per_turn=config.game_hints_per_turn,
                               start_named=self.start_named, language=config.language())
        self._ring = menu_layout(BOARDS[rules.board]).slots  # the waiting chase's ring
        self._cap = self.board.leds.brightness
        # The brightness kept from an earlier run, set before the first frame is shown.
        self._brightness = self.session.brightness
        self.board.leds.brightness = self._cap * self._brightness
        # Changes made from outside the loop's own turn (the web companion calling
        # new_game, takeback, remote_move) must wake the loop to light them; what the loop's
        # own turn changes is lit by that turn.
        self.session.subscribe(lambda update: None if self._turning else self.wake(),
                               at_once=True)
        self._advice = AdviceService(loop, self.session, self.clock, self.wake)
        for service in self.services:
            self._tasks.append(loop.create_task(service(self)))
        if self.sim_script is not None:
            if self.board.simulation is None:
                raise ValueError("--sim-hands needs the simulated board (NAVAKANKARI_BACKEND=sim)")
            from .simhands import SimHands

            hands = SimHands(self.board.simulation, self.session, self.sim_script)
            self._tasks.append(loop.create_task(hands.run()))

    def now(self) -> float:
        """The daemon's clock (what session methods take as `now`)."""
        return self.clock()

    def add_frame_listener(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback()` in the loop after every frame sent to the LEDs (the web page
        mirrors them) and after `changed()`; returns a function that removes it."""
        self._frame_listeners.append(callback)
        return lambda: self._frame_listeners.remove(callback) \
            if callback in self._frame_listeners else None

    def changed(self) -> None:
        """Something the page shows beside the game and the lights changed (online play's
        link, an invitation's problem): tell the page, and run the loop once more."""
        for listener in list(self._frame_listeners):
            listener()
        self.wake()

    def wake(self) -> None:
        """Run the loop once more soon (call from the loop's thread)."""
        if self._wake is not None:
            self._wake.set()

    def _on_event(self, event: SensorEvent) -> None:
        """A sensor edge (in the loop's thread): handed to the session at the next turn."""
        assert self._wake is not None
        self._edges.append(event)
        self._wake.set()

    async def _serve(self) -> None:
        session = self.session
        assert session is not None and self.stop_event is not None and self._wake is not None
        last_frame: dict[str, tuple[int, int, int]] | None = None
        interval = self.notifier.watchdog_interval
        next_dog = self.clock() if interval else None
        next_flush: float | None = None
        while not self.stop_event.is_set():
            self.wakeups += 1
            # Cleared before the turn: what sets it from here on (an edge, a stop, while the
            # turn waits for the store) wakes the next one.
            self._wake.clear()
            now = self.clock()
            edges, self._edges = self._edges, []
            self._turning = True
            try:
                turn = session.turn(edges, now)
            finally:
                self._turning = False
            self._ask_computer(turn)
            if self._advice is not None:
                self._advice.ask(turn.advice)
            if self.store.writing:
                next_dog = await self._while_writing(next_dog)
                if self.stop_event.is_set():
                    break
                last_frame = None  # the turn's frame is sent, whatever the wait showed
            session.state.release()  # stored: the subscribers are told, the frame is lit
            self._keep_lit(turn.game, turn.status)
            if turn.brightness != self._brightness:
                self._brightness = turn.brightness
                self.board.leds.brightness = self._cap * turn.brightness
                last_frame = None  # the same colours, sent again at the new brightness
            waiting = self.online.waiting_since \
                if self.online is not None and self.online.waiting else None
            frame = turn.frame if waiting is None else lights.awaiting(self._ring, waiting, now)
            if frame != last_frame and (self._led_retry is None or now >= self._led_retry):
                if self._show(frame, now):
                    self.frames_shown += 1
                    last_frame = self.last_frame = frame
                    for listener in list(self._frame_listeners):
                        listener()
                else:
                    last_frame = None  # what the LEDs show is unknown: send the next frame
            if next_dog is not None and now >= next_dog:
                self.notifier.watchdog()
                next_dog = now + interval  # type: ignore[operator]
            if not turn.unwritten:
                next_flush = None  # written already (a commit writes the events before it)
            elif next_flush is None:
                next_flush = now + EVENT_FLUSH
            elif now >= next_flush:
                session.flush_events()
                next_flush = None
            frame_change = turn.frame_change if waiting is None else \
                lights.next_awaiting_change(waiting, now)
            times = [t for t in (turn.deadline, frame_change, next_dog, next_flush,
                                 self._led_retry) if t is not None]
            timeout = max(0.0, min(times) - self.clock()) if times else None
            self.late_threads.share()  # after the frame: a new thread costs a look at /proc
            await self._wake.wait(timeout)

    async def stored(self) -> None:
        """Until no store write is under way: what the page or online play shows once this
        returns (before the loop runs anything else) holds only stored actions. A write
        asked for while waiting is waited for too; the loop goes on meanwhile."""
        while (settled := self.store.settled()) is not None:
            await asyncio.wrap_future(settled)

    def _keep_lit(self, game: Game, status: Status) -> None:
        """Remember what the frame shows once it is stored: the loop animates it while a
        later write is under way (`_while_writing`). The game is copied when it changed."""
        history = game.history
        key = (id(game), len(history), history[-1].text if history else None)
        if self._lit is None or self._lit[0] != key:
            self._lit = (key, game.copy(), status)
        elif self._lit[2] is not status:
            self._lit = (key, self._lit[1], status)

    def _lit_frame(self, now: float) -> tuple[dict[str, tuple[int, int, int]] | None,
                                             float | None]:
        """The frame of the state last stored (`_keep_lit`) at `now`, and when it changes."""
        if self.online is not None and self.online.waiting:
            waiting = self.online.waiting_since
            return (lights.awaiting(self._ring, waiting, now),
                    lights.next_awaiting_change(waiting, now))
        if self._lit is None:
            return None, None
        _, game, status = self._lit
        return lights.render(game, status, now), lights.next_change(game, status, now)

    async def _while_writing(self, next_dog: float | None) -> float | None:
        """Stored before lit: until the store's writes under way (an action committed, a new
        game) are done, the turn's frame and updates wait, and the loop goes on (the page and
        online play are served; sensor edges wait for the next turn). Meanwhile the lights
        go on animating the state last stored (a blink does not freeze on a slow disk), and
        the watchdog is fed while the writer is sound: its thread alive, and the write under
        way younger than WRITE_STUCK. A sync of 30 s on a dying card must not get the board
        killed mid-write (a restart would lose nothing, but waits just as long on the same
        card); a writer whose thread ended, or one stuck past WRITE_STUCK, will not finish,
        and the watchdog's restart (WatchdogSec later) is the way out. Returns the next
        watchdog time. A write that failed leaves `store.failure`, the page's notice."""
        store, stop = self.store, self.stop_event
        assert stop is not None
        interval = self.notifier.watchdog_interval
        shown: dict[str, tuple[int, int, int]] | None = self.last_frame
        written, since = store.written, self.clock()
        while (settled := store.settled()) is not None and not stop.is_set():
            done = asyncio.wrap_future(settled)
            while not done.done() and not stop.is_set():
                now = self.clock()
                if store.written != written:  # a write ended: the next one is under way
                    written, since = store.written, now
                frame, change = self._lit_frame(now)
                if (frame is not None and frame != shown
                        and (self._led_retry is None or now >= self._led_retry)):
                    shown = frame if self._show(frame, now) else None
                    if shown is not None:
                        self.frames_shown += 1
                        self.last_frame = shown
                        for listener in list(self._frame_listeners):
                            listener()
                sound = store.writer_alive and now - since < WRITE_STUCK
                if next_dog is not None and now >= next_dog and sound:
                    self.notifier.watchdog()
                    next_dog = now + interval  # type: ignore[operator]
                times = [t for t in (change, next_dog if sound else None, self._led_retry)
                         if t is not None]
                timeout = max(0.0, min(times) - self.clock()) if times else None
                await asyncio.wait((done,), timeout=timeout)
        return next_dog

    def _show(self, frame: dict[str, tuple[int, int, int]], now: float) -> bool:
        """Write a frame to the LEDs; a failure is logged and shown on the page once, and
        retried every LED_RETRY seconds, but never ends the daemon."""
        try:
            self.board.leds.show(frame)
        except (OSError, RuntimeError) as exc:
            self.led_failures += 1
            self._led_retry = now + LED_RETRY
            if self.led_failure is None:
                log.error("the LEDs could not be written (%s: %s); trying again every %.1f s",
                          type(exc).__name__, exc, LED_RETRY)
                self.led_failure = Phrase(LEDS_FAILED, problem=exc)
                self.changed()
            return False
        self._led_retry = None
        if self.led_failure is not None:
            log.warning("the LEDs are written again, after %d failed writes", self.led_failures)
            self.led_failure = None
        return True

    @property
    def computer_busy(self) -> bool:
        """A search is running (what `navakankari bench thinking` sorts its figures by)."""
        return self._thinking is not None and not self._thinking[1].done()

    def _ask_computer(self, turn: Turn) -> None:
        session = self.session
        assert session is not None and self._loop is not None
        request = turn.computer  # None while a failed turn waits for the game to move on
        thinking = self._thinking
        if thinking is not None and not thinking[1].done() and thinking[0].token != turn.token:
            # The game moved on (an action, takeback, new game): stop that search. A board
            # being put right meanwhile does not: its answer waits for the board.
            thinking[2].set()
        if request is None or (thinking is not None and thinking[0].token == request.token):
            return
        spec = request.player or PlayerSpec("computer", request.level)
        # The adaptive computer is the search at the level of the game in play.
        key = f"computer:{spec.level}" if spec.kind == "computer" else str(spec)
        player = self._players.get(key)
        if player is None:
            try:
                player = self._players[key] = self.player_factory(spec)
            except ValueError as exc:  # an engine that is not installed
                log.error("%s cannot play: %s", spec, exc)
                session.answers.computer_failed(request, failure_phrase(exc), self.clock())
                return
        stop = threading.Event()
        future = self._loop.run_in_executor(self._executor, computer_turn, player, request.game,
                                            stop, request.seed)
        self._thinking = (request, future, stop)
        future.add_done_callback(functools.partial(self._computer_done, request))

    def _computer_done(self, request: ComputerRequest, future: asyncio.Future[Any]) -> None:
        if future.cancelled() or self.session is None:
            return
        exc = future.exception()
        if exc is not None:
            log.error("computer player failed: %s", exc)
            self.session.answers.computer_failed(request, failure_phrase(exc), self.clock())
            if self._wake is not None:
                self._wake.set()
            return
        if self.session.answers.offer(request, future.result(), self.clock()):
            log.info("computer plays %s", " ".join(a.text for a in future.result()))
        if self._wake is not None:
            self._wake.set()

    async def _shutdown(self) -> None:
        self.notifier.stopping()
        if self._thinking is not None:
            self._thinking[2].set()
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=SHUTDOWN_TIMEOUT)
        try:
            self.board.leds.off()
        except Exception:  # keep going: the store must still be closed
            log.exception("could not turn the LEDs off")
        try:
            self.board.close()
        except Exception:
            log.exception("could not close the board")
        if self.session is not None:
            for event in self._edges:  # edges that came after the last turn are kept too
                self.session.feed(event)
            self.session.close()
        self.store.close()
        self._executor.shutdown(wait=False, cancel_futures=True)
        if self._advice is not None:
            self._advice.close()
        for player in self._players.values():
            close_player(player)
        self.notifier.close()
        # Whatever the services leave for the collector (an MQTT client's destructor calls
        # back into this loop) goes now, while the loop still runs.
        self._tasks.clear()
        gc.collect()
        log.info("stopped")
