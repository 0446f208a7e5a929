package dev.svc.connector;

/**
 * How a connector's connection pool is used right now (for the {@code db.client.connection.*}
 * metrics).
 *
 * @param used connections borrowed by calls
 * @param idle connections waiting for a call
 * @param max the pool's size
 * @param pending calls waiting for a connection
 */
public record PoolUsage(int used, int idle, int max, int pending) {}
