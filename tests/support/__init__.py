"""What the tests share: paths, store helpers, the app driver, fakes on loopback."""
