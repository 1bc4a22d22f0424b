# unknown: an empty package.
