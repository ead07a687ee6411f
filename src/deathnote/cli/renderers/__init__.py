"""Game-specific terminal renderers (view only, no rules)."""
