"""Signatures: OpenSSH SSHSIG over Ed25519, made and checked with `cryptography`."""
