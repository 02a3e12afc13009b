"""Where things live and what the machine can do: the user's folders, the bundled
resources (also inside an installer), CPU features, engines and precisions."""
