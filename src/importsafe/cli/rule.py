"""`importsafe rule`: a rule's documentation, the text of its page docs/rules/CODE.md."""
from __future__ import annotations

import click

from ..rules import RULES
from .common import fail


@click.command()
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="List every rule code (the default "
              "without CODE).")
def rule(code, show_all) -> None:
    """Show what a rule means, why it matters, an example and the fix: CODE like IS101.

    Without CODE, or with --all: every code with its name, severity and summary."""
    from ..report import rules as render
    if code is None or show_all:
        if code is not None:
            fail("give a rule code or --all, not both")
        click.echo(render.rule_list(), nl=False)
        return
    found = RULES.get(code.strip().upper())
    if found is None:
        fail(f"unknown rule code {code!r}: `importsafe rule` lists the codes "
             f"({', '.join(RULES)})")
    click.echo(render.rule_page(found), nl=False)
