/**
 * Compiled tests of a project ({@code svc test}, docs/testing.md): suites of cases, each with its
 * expectations, and the pure checks of an answer against them. Made by the compiler from {@code
 * tests.terse} files; run by {@code dev.svc.suite.run}. Imports only {@code diagnostic} and {@code
 * json}.
 */
package dev.svc.suite;
