import wildsub.core

WHERE = wildsub.core.never_imported.VALUE
