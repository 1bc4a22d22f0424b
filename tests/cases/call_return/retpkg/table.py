KINDS = ("fast", "slow")
