"""Headless simulation for balance studies."""
