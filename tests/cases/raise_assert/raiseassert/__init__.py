# module-level raise / assert, platform tests and module dunder attributes (no cycle needed)
