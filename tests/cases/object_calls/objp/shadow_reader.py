from .shadow import SHADOW
