import ca.probe as probe

Y = probe.READY  # an AttributeError while ca.probe runs
