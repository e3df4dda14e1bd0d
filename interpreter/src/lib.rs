//! Grimoire interpreter.
