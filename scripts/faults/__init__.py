"""Planted-fault campaigns on the reference device."""
