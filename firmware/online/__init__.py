"""Online play between boards through an MQTT broker: the game code, the fair toss, the move
log that cannot lose, duplicate or fork a move, and the link to the broker."""
