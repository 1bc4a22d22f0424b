from dplug.paths import a
