"""The static stages: discover, facts, simulate. Pure except discover's directory listings."""
