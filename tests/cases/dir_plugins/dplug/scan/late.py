from dplug.scan import VALUE  # bound after the loop: fails by the cycle
