"""deathnote: play, study and simulate the five Death Note tabletop games."""

__version__ = "0.1.0"
