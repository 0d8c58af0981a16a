"""The cardroom service: job files, the command line, and (later) the gRPC API."""
