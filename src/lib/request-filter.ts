/**
 * The request journal's filter values as text (`GET /_payemu/requests`, `payemu requests`): the
 * server's filter and the command line read them with the same patterns, so the command refuses
 * (exit 2) exactly what the server would (a 422).
 */

/** `method`: an HTTP method, in any letter case. */
export const REQUEST_METHOD = /^[A-Za-z]{1,16}$/;

/** `status`: a code (`422`) or a class (`4xx`); the first group is the class digit, the second `xx` for a class. */
export const REQUEST_STATUS = /^([1-5])(\d\d|xx)$/i;
