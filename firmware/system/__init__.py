"""The systemd unit and its installer, and `navakankari doctor`."""
