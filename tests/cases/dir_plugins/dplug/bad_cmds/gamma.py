# reads what the package binds after its scan: fails when the scan imports it
from dplug.bad_cmds import commands
