"""Every outside system, one module each. Adapters translate; they hold no business rules."""
