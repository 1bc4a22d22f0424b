from dplug.cmds import REGISTRY
REGISTRY.append("beta")
