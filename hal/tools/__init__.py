"""The maker's tools for a freshly built board: the self-test and the calibration."""
