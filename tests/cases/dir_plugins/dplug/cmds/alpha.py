from dplug.cmds import REGISTRY
REGISTRY.append("alpha")
