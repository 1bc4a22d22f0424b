# bindings: an empty package.
