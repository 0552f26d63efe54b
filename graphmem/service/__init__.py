"""``graphmem serve``: one process keeps a store and the embedding model loaded and
answers the library's verbs over HTTP (JSON), so a question from the shell does not
wait for torch and the model to load.

- ``state``: the small discovery file a running service writes beside its store;
- ``app``: the FastAPI application over one ``Memory`` (OpenAPI docs at ``/docs``);
- ``client``: a stdlib-only client, ``RemoteMemory``, with ``Memory``'s read verbs and
  ``load``, returning the same objects, so the CLI renders them with the same code;
- ``server``: runs the app with uvicorn, writing the state file and removing it on exit.

The client side imports neither FastAPI nor torch: a verb answered by the service
costs the CLI's own start-up and one request.
"""
