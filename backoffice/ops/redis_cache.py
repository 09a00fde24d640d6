"""Django's Redis cache, keeping one redis-py client per connection pool instead of building one per operation.

Django's ``RedisCacheClient.get_client`` returns a new ``redis.Redis`` for every cache call; building one fills
its table of ~170 response callbacks, a fifth of a millisecond of CPU each time, and the API makes one or two
cache calls per request (the rate-limit counter, cached reference data). A ``redis.Redis`` is safe to share
between threads (each command takes a connection from the pool), so one per pool serves every call.
Behaviour is Django's own otherwise: the same keys, serialisation, pools and options.
"""

import threading

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class SharedClientRedisCacheClient(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}
        self._lock = threading.Lock()

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            with self._lock:
                client = self._clients.get(index)
                if client is None:
                    client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with one shared client per pool (see the module)."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = SharedClientRedisCacheClient
