"""Wiring profiles (TOML) shipped with the package, and the documents generated from them."""

from pathlib import Path

PROFILE_DIR = Path(__file__).resolve().parent
