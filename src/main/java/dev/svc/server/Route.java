package dev.svc.server;

import dev.svc.protocol.HttpCall;
import dev.svc.protocol.HttpReply;

/** Answers the HTTP calls under one path prefix. */
@FunctionalInterface
public interface Route {
  HttpReply handle(HttpCall call);
}
