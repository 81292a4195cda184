"""Runnable examples of approx_runtime (python -m approx_runtime.examples.<name>)."""
