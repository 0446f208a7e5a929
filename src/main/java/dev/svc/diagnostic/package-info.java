/**
 * Diagnostics: positioned, coded problems found in a project ({@code file:line:col: error[code]:
 * message}). A leaf package every stage of reading a project can use.
 */
package dev.svc.diagnostic;
