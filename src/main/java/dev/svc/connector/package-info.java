/**
 * Connectors: one implementation per wire protocol behind the small {@link
 * dev.svc.connector.Connector} interface. Values are always bound, never spliced.
 */
package dev.svc.connector;
