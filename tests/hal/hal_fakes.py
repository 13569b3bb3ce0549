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
        low = any(chip.int_asserted() for chip in self.chips.values())
        if low != self.int_low:
            self.int_low = low
            if self.on_int is not None:
                self.on_int(low)


class FakeSPI:
    """A busio.SPI-like bus that keeps every write."""

    def __init__(self) -> None:
        self.locked = False
        self.frequency = 6_400_000
        self.writes: list[bytes] = []

    def try_lock(self) -> bool:
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self) -> None:
        self.locked = False

    def configure(self, *, baudrate: int = 100000, polarity: int = 0, phase: int = 0, bits: int = 8) -> None:
        self.frequency = baudrate

    def write(self, buffer: bytes, *, start: int = 0, end: int | None = None) -> None:
        assert self.locked, "SPI written without the lock"
        self.writes.append(bytes(buffer[start:end]))


def decode_ws2812_spi(stream: bytes, bit1: int = 0b11110000) -> bytes:
    """The bytes a neopixel_spi stream sends: one SPI byte per data bit, reset zeros around."""
    body = stream.strip(b"\x00")
    bits = [1 if b == bit1 else 0 for b in body]
    return bytes(int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8))
