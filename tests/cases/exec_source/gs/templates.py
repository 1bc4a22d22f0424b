def template(with_forward: bool):
    return _PREFIX + (_FORWARD if with_forward else _PLAIN)


_PREFIX = """from typing import *

import gs.base
from gs.base import Tensor
from gs.rpc import RRef


{assign}


def forward_async(self, {arg_types}){arrow}:
    kwargs = {{{kwargs}}}
    return RRef, kwargs
"""

_FORWARD = """
def forward(self, x: RRef[module_cls], {arg_types}){arrow}:
    return forward_async(self, {args})
"""

_PLAIN = """
def forward(self, {arg_types}){arrow}:
    return None
"""
