/** `2024-05-01 12:00:00.000` (how rows store times) → ISO 8601 with Z, as the data API answers. */
export const fromStoredDatetime = (s: string) => `${s.slice(0, 10)}T${s.slice(11, 23)}Z`;
