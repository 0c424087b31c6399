/**
 * Google Business Profile resource names as Crafter takes them when a location is chosen: an
 * account `accounts/{id}` and a location `locations/{id}` (ids of letters, digits, `_` and `-`, at
 * most 100), with the messages the gateway and the projects service answer.
 */
export const GOOGLE_ACCOUNT_NAME = /^accounts\/[A-Za-z0-9_-]{1,100}$/;
export const GOOGLE_LOCATION_NAME = /^locations\/[A-Za-z0-9_-]{1,100}$/;
export const GOOGLE_ACCOUNT_NAME_MESSAGE = "The account must be accounts/{id}";
export const GOOGLE_LOCATION_NAME_MESSAGE = "The location must be locations/{id}";
