from dplug.entries import DONE  # bound after the scan: fails by the cycle
