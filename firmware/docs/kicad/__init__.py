"""The circuit models as KiCad 9 projects: schematics drawn with KiCad's symbols, checked by
KiCad's own ERC and exported by kicad-cli."""
