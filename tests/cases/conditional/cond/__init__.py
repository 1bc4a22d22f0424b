# conditional: an empty package.
