/**
 * The compiled model: immutable records of a validated project. Env placeholders stay placeholders;
 * statements are split into text and bound parameters. Runtime, protocols and the build artifact
 * read only this.
 */
package dev.svc.model;
