# R28: an empty package.
