"""Stand-ins for hardware the libraries talk to: an RPi.GPIO module wired to a switch matrix,
an I2C bus with MCP23017 chips, an SPI bus. The Adafruit drivers and gpiozero run for real on
top of them; only the electrical world below is modelled."""

from __future__ import annotations

from collections.abc import Callable, Iterable


class MatrixGPIO:
    """The RPi.GPIO API over a rows x columns reed-switch matrix.

    A column reads LOW when current can flow from its pull-up to a row driven LOW. With
    diodes, current only flows column -> row through a closed switch; without them it flows
    both ways, so it can go back up another closed switch into another column (ghosts).
    """

    BCM = 11
    BOARD = 10
    IN = 1
    OUT = 0
    LOW = 0
    HIGH = 1
    PUD_OFF = 20
    PUD_UP = 22
    PUD_DOWN = 21

    def __init__(self, rows: Iterable[int], columns: Iterable[int], *, diodes: bool = True) -> None:
        self.rows = tuple(rows)
        self.columns = tuple(columns)
        self.diodes = diodes
        self.closed: set[tuple[int, int]] = set()
        self.mode: int | None = None
        self.pins: dict[int, tuple[int, int]] = {}  # pin -> (direction, pull or level)
        self.cleaned: list[int] = []
        self.inputs_read = 0

    # --- the RPi.GPIO surface used by the backend --------------------------------------------

    def setwarnings(self, flag: bool) -> None:
        pass

    def setmode(self, mode: int) -> None:
        self.mode = mode

    def setup(
        self, pin: int, direction: int, pull_up_down: int = PUD_OFF, initial: int | None = None
    ) -> None:
        if self.mode != self.BCM:
            raise RuntimeError("setmode(BCM) first")
        if direction == self.OUT:
            self.pins[pin] = (self.OUT, self.LOW if initial is None else initial)
        else:
            self.pins[pin] = (self.IN, pull_up_down)

    def output(self, pin: int, value: int) -> None:
        if self.pins.get(pin, (None,))[0] != self.OUT:
            raise RuntimeError(f"GPIO{pin} is not an output")
        self.pins[pin] = (self.OUT, value)

    def input(self, pin: int) -> int:
        direction, setting = self.pins[pin]
        if direction == self.OUT:
            return setting
        self.inputs_read += 1
        if pin in self.columns and self._pulled_low(self.columns.index(pin)):
            return self.LOW
        return self.HIGH if setting == self.PUD_UP else self.LOW

    def cleanup(self, channels: Iterable[int] | None = None) -> None:
        chosen = list(self.pins) if channels is None else list(channels)
        for pin in chosen:
            self.pins.pop(pin, None)
        self.cleaned.extend(chosen)

    # --- electrics --------------------------------------------------------------------------

    def _row_level(self, r: int) -> int | None:
        direction, setting = self.pins.get(self.rows[r], (self.IN, self.PUD_OFF))
        return setting if direction == self.OUT else None

    def _pulled_low(self, column: int) -> bool:
        seen = {("c", column)}
        todo = [("c", column)]
        while todo:
            kind, i = todo.pop()
            if kind == "c":
                nexts = [("r", r) for r in range(len(self.rows)) if (r, i) in self.closed]
            else:
                level = self._row_level(i)
                if level == self.LOW:
                    return True
                if level == self.HIGH or self.diodes:
                    continue  # a driven-high row sinks nothing; a diode blocks row -> column
                nexts = [("c", c) for c in range(len(self.columns)) if (i, c) in self.closed]
            for node in nexts:
                if node not in seen:
                    seen.add(node)
                    todo.append(node)
        return False


IODIR, IPOL, GPINTEN, DEFVAL, INTCON, IOCON, GPPU, INTF, INTCAP, GPIO, OLAT = (
    0x00,
    0x02,
    0x04,
    0x06,
    0x08,
    0x0A,
    0x0C,
    0x0E,
    0x10,
    0x12,
    0x14,
)


class FakeMcp23017:
    """Registers of one MCP23017 (IOCON.BANK = 0, sequential addressing), and its pins."""

    def __init__(self) -> None:
        self.regs = bytearray(0x16)
        self.regs[IODIR] = self.regs[IODIR + 1] = 0xFF
        self.grounded = 0  # pins a closed switch joins to ground
        self.pointer = 0

    def reg16(self, reg: int) -> int:
        return self.regs[reg] | self.regs[reg + 1] << 8

    def levels(self) -> int:
        """Pin levels: grounded reads 0; open reads 1 if pulled up (floating reads 0 here)."""
        return ~self.grounded & self.reg16(GPPU) & 0xFFFF

    def value(self) -> int:
        return self.levels() ^ self.reg16(IPOL)

    def set_grounded(self, bit: int, grounded: bool) -> None:
        before = self.value()
        self.grounded = self.grounded | 1 << bit if grounded else self.grounded & ~(1 << bit)
        changed = (before ^ self.value()) & self.reg16(GPINTEN) & ~self.reg16(INTCON)
        if changed and not self.reg16(INTF):
            cap = before
            self.regs[INTCAP], self.regs[INTCAP + 1] = cap & 0xFF, cap >> 8
        flags = self.reg16(INTF) | changed
        self.regs[INTF], self.regs[INTF + 1] = flags & 0xFF, flags >> 8

    def int_asserted(self) -> bool:
        flags = self.reg16(INTF)
        mirrored = self.regs[IOCON] & 0x40
        return bool(flags if mirrored else flags & 0xFF)  # INTA is the pin wired

    def int_drive(self) -> str | None:
        """What INTA does to the shared line: "low" or "high", or None (released). Push-pull
        after power-on (IOCON.ODR = 0) it drives its idle level too; open-drain only sinks."""
        active_high = bool(self.regs[IOCON] & 0x02)
        if self.regs[IOCON] & 0x04:  # ODR: open-drain, active low, INTPOL ignored
            return "low" if self.int_asserted() else None
        asserted = self.int_asserted()
        return "high" if asserted == active_high else "low"

    def input_only_violations(self) -> list[str]:
        """GPA7/GPB7 set as inputs: output-only on current silicon (reading them can corrupt SDA)."""
        iodir = self.reg16(IODIR)
        return [name for name, bit in (("GPA7", 7), ("GPB7", 15)) if iodir >> bit & 1]

    def read(self, reg: int) -> int:
        if reg in (GPIO, GPIO + 1, INTCAP, INTCAP + 1):
            self.regs[INTF] = self.regs[INTF + 1] = 0  # reading GPIO or INTCAP clears it
        if reg in (GPIO, GPIO + 1):
            return self.value() >> (8 * (reg - GPIO)) & 0xFF
        return self.regs[reg]

    def write(self, reg: int, value: int) -> None:
        if reg in (INTF, INTF + 1, INTCAP, INTCAP + 1):
            return  # read-only
        self.regs[reg] = value


class FakeI2C:
    """A busio.I2C-like bus with MCP23017 chips; `on_int(low)` sees the shared INT line."""

    def __init__(self, addresses: Iterable[int], on_int: Callable[[bool], None] | None = None) -> None:
        self.chips = {a: FakeMcp23017() for a in addresses}
        self.locked = False
        self.on_int = on_int
        self.int_low = False
        self.deinit_called = False
        self.during_read: Callable[[int, int], None] | None = None
        """Called (address, register) once per register read: the world changing mid-read."""
        self.fights: list[dict[int, str | None]] = []
        """Each moment one chip's INT drove the shared line low while another drove it high."""
        self.output_only_reads: list[tuple[int, str]] = []
        """(address, pin) for each GPIO read while GPA7/GPB7 were inputs."""

    def try_lock(self) -> bool:
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self) -> None:
        assert self.locked, "unlock without lock"
        self.locked = False
        self._update_int()

    def _chip(self, address: int) -> FakeMcp23017:
        assert self.locked, "bus used without the lock"
        if address not in self.chips:
            raise OSError(f"no ACK from 0x{address:02x}")
        return self.chips[address]

    def writeto(self, address: int, buffer: bytes, *, start: int = 0, end: int | None = None) -> None:
        chip = self._chip(address)
        data = bytes(buffer[start:end])
        if not data:
            return  # probe
        reg = data[0]
        for offset, value in enumerate(data[1:]):
            chip.write(reg + offset, value)
        chip.pointer = reg
        self._update_int()

    def writeto_then_readfrom(
        self,
        address: int,
        out_buffer: bytes,
        in_buffer: bytearray,
        *,
        out_start: int = 0,
        out_end: int | None = None,
        in_start: int = 0,
        in_end: int | None = None,
    ) -> None:
        chip = self._chip(address)
        reg = out_buffer[out_start]
        end = len(in_buffer) if in_end is None else in_end
        for offset, i in enumerate(range(in_start, end)):
            if reg + offset in (GPIO, GPIO + 1):
                port = "AB"[reg + offset - GPIO]
                self.output_only_reads += [(address, p) for p in chip.input_only_violations() if p[2] == port]
            in_buffer[i] = chip.read(reg + offset)
        if self.during_read is not None:
            self.during_read(address, reg)

    def readfrom_into(
        self, address: int, buffer: bytearray, *, start: int = 0, end: int | None = None
    ) -> None:
        chip = self._chip(address)
        for offset, i in enumerate(range(start, len(buffer) if end is None else end)):
            buffer[i] = chip.read(chip.pointer + offset)
        self._update_int()

    def deinit(self) -> None:
        self.deinit_called = True

    def ground(self, address: int, bit: int, grounded: bool) -> None:
        """A switch on a chip's pin closes (True) or opens."""
        self.chips[address].set_grounded(bit, grounded)
        self._update_int()

    def _update_int(self) -> None:
        """The INT line follows the chips once the bus is free (not in mid-transfer)."""
        if self.locked:
            return
        drives = {a: chip.int_drive() for a, chip in self.chips.items()}
        if "low" in drives.values() and "high" in drives.values():
            self.fights.append(drives)
        low = "low" in drives.values()
        if low != self.int_low:
            self.int_low = low
            if self.on_int is not None:
                self.on_int(low)


PI_SPI_CLOCK_HZ = 250_000_000
"""The clock the Pi's SPI0 divides (the core clock: 250 MHz fixed with `core_freq=250` on a Pi 3,
and divided to the same rates from 500 MHz on a Pi 4 with `core_freq_min=500`)."""


def pi_spi_hz(requested: int, clock: int = PI_SPI_CLOCK_HZ) -> float:
    """The rate the Pi really gives: its driver (Linux spi-bcm2835) divides the clock by an even
    divider of at least 2, rounded up so the rate never exceeds the one asked (6.4 MHz asked:
    250 MHz / 40 = 6.25 MHz)."""
    divider = 2 if requested >= clock / 2 else -(-clock // requested)
    divider += divider % 2
    return clock / divider


class FakeSPI:
    """A busio.SPI-like bus that keeps every write, clocked at the rate the Pi's divider gives."""

    def __init__(self) -> None:
        self.locked = False
        self.frequency = pi_spi_hz(100_000)
        self.writes: list[bytes] = []

    def try_lock(self) -> bool:
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self) -> None:
        self.locked = False

    def configure(self, *, baudrate: int = 100000, polarity: int = 0, phase: int = 0, bits: int = 8) -> None:
        self.frequency = pi_spi_hz(baudrate)

    def write(self, buffer: bytes, *, start: int = 0, end: int | None = None) -> None:
        assert self.locked, "SPI written without the lock"
        self.writes.append(bytes(buffer[start:end]))


WS2812B_NS = {"T0H": (250, 550), "T0L": (700, 1000), "T1H": (650, 950), "T1L": (300, 600)}
"""WS2812B data transfer times, each nominal +-150 ns (Worldsemi WS2812B data sheet, p. 3:
T0H 0.4 us, T0L 0.85 us, T1H 0.8 us, T1L 0.45 us); a reset is low for more than 50 us."""
WS2812B_RESET_NS = 50_000


class TimingError(AssertionError):
    """An SPI byte whose high and low times are neither a WS2812B 0 nor a 1."""


def decode_ws2812_spi(stream: bytes, hz: float) -> bytes:
    """The bytes a WS2812B chain reads from an SPI stream sent at `hz` (MOSI, MSB first): each
    non-zero SPI byte is one data bit, judged by how long it holds the line high and then low,
    with the reset (low for more than 50 us) before and after checked too."""
    ns = 1e9 / hz
    lead = len(stream) - len(stream.lstrip(b"\x00"))
    trail = len(stream) - len(stream.rstrip(b"\x00"))
    for name, zeros in (("leading", lead), ("trailing", trail)):
        if zeros * 8 * ns <= WS2812B_RESET_NS:
            raise TimingError(f"{name} reset low for {zeros * 8 * ns:.0f} ns, not more than {WS2812B_RESET_NS} ns")
    bits = []
    for i, byte in enumerate(stream[lead : len(stream) - trail]):
        high = 8 - len(f"{byte:08b}".lstrip("1"))
        if byte != (0xFF << (8 - high)) & 0xFF:
            raise TimingError(f"bit {i}: {byte:08b} is not one high pulse then low")
        th, tl = high * ns, (8 - high) * ns
        fits = [b for b in (0, 1) if _within(th, f"T{b}H") and _within(tl, f"T{b}L")]
        if len(fits) != 1:
            raise TimingError(f"bit {i}: high {th:.0f} ns, low {tl:.0f} ns at {hz / 1e6:g} MHz is no WS2812B bit")
        bits.append(fits[0])
    if len(bits) % 8:
        raise TimingError(f"{len(bits)} bits is not whole bytes")
    return bytes(int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8))


def _within(t: float, name: str) -> bool:
    lo, hi = WS2812B_NS[name]
    return lo <= t <= hi
