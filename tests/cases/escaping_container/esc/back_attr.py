from .attr import X
