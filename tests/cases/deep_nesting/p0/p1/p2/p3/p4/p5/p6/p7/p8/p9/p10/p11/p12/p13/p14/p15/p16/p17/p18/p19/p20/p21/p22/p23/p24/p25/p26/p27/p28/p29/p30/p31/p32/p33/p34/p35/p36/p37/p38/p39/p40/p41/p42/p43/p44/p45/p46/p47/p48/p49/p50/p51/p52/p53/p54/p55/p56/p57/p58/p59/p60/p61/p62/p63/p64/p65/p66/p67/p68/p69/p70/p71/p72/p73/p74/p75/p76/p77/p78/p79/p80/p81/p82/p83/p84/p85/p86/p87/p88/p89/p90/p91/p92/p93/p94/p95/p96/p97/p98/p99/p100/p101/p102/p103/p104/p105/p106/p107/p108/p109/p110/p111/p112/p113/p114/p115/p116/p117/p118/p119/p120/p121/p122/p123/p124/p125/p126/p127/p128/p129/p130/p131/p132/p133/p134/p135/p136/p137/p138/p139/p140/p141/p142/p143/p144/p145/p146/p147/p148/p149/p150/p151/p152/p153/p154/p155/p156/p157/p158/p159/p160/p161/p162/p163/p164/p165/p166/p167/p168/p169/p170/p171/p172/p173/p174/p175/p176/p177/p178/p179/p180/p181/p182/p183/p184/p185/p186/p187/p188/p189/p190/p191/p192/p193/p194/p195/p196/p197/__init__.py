from . import p198
