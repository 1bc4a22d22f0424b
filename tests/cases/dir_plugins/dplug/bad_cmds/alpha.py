from dplug.bad_cmds import REGISTRY
REGISTRY.append("alpha")
