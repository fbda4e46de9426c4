/**
 * Zulip's own names for the emoji people use most (faces, hands, people and the default
 * reaction set). Zulip clients send these names with reactions and expect them in rendered
 * messages (`:smile:` is U+1F642 in Zulip, not iamcal's U+1F604), so they take precedence over
 * the iamcal short names from emoji-datasource. One emoji per line: code, canonical name, aliases.
 */
const TABLE = `
1f600 grinning happy
1f603 smiley
1f604 big_smile
1f601 grinning_face_with_smiling_eyes
1f606 laughing lol
1f605 sweat_smile
1f602 joy tears laughter_tears
1f923 rolling_on_the_floor_laughing rofl
263a smiling_face relaxed
1f60a blush
1f607 innocent halo
1f642 smile
1f643 upside_down oops
1f609 wink
1f60c relieved
1f60d heart_eyes in_love
1f618 heart_kiss blow_a_kiss
1f619 kiss_smiling_eyes
1f61a kiss_with_blush
1f60b yum
1f61b stuck_out_tongue mischievous
1f61c stuck_out_tongue_wink joking crazy
1f61d stuck_out_tongue_closed_eyes
1f911 money_face kaching
1f917 hug arms_open
1f913 nerd geek
1f60e sunglasses
1f921 clown
1f920 cowboy
1f60f smirk smug
1f612 unamused
1f61e disappointed
1f614 pensive tired
1f61f worried
1f615 oh_no half_frown concerned confused
1f641 frown slight_frown
2639 sad big_frown
1f623 persevere helpless
1f616 confounded agony
1f62b anguish
1f629 weary distraught
1f624 triumph
1f620 angry
1f621 rage mad grumpy very_angry
1f636 speechless no_mouth blank poker_face
1f610 neutral
1f611 expressionless
1f62f hushed
1f626 frowning
1f627 anguished pained
1f62e open_mouth surprise
1f632 astonished
1f635 dizzy
1f633 flushed embarrassed blushing
1f631 scream
1f628 fear scared shock
1f630 cold_sweat
1f622 cry
1f625 exhausted disappointed_relieved stressed
1f924 drooling
1f62d sob
1f613 sweat
1f62a sleepy
1f634 sleeping
1f644 rolling_eyes
1f914 thinking
1f925 lying
1f62c grimacing nervous anxious
1f910 silence quiet hush zip_it lips_are_sealed
1f922 nauseated queasy
1f927 sneezing
1f637 mask
1f912 sick flu face_with_thermometer ill fever
1f915 hurt head_bandage injured
1f608 smiling_devil smiling_imp smiling_face_with_horns
1f47f devil imp angry_devil
1f479 ogre
1f47a goblin
1f4a9 poop pile_of_poo
1f47b ghost boo spooky haunted
1f480 skull
2620 skull_and_crossbones pirate death hazard toxic poison
1f47d alien ufo
1f47e space_invader
1f916 robot
1f383 jack-o-lantern pumpkin
1f63a smiley_cat
1f638 smile_cat
1f639 joy_cat
1f63b heart_eyes_cat
1f63c smirk_cat smug_cat
1f63d kissing_cat
1f640 scream_cat weary_cat
1f63f crying_cat
1f63e angry_cat pouting_cat
1f450 open_hands
1f64c raised_hands praise
1f44f clap applause
1f64f folded_hands welcome thank_you namaste pray
1f91d handshake done_deal
1f44d +1 thumbs_up like
1f44e -1 thumbs_down
1f44a fist_bump punch
270a fist power
1f91b left_fist
1f91c right_fist
1f91e fingers_crossed
270c peace_sign victory
1f918 rock_on sign_of_the_horns
1f44c ok got_it
1f448 point_left
1f449 point_right
1f446 point_up this
1f447 point_down
261d wait_one_second point_of_information asking_a_question
270b hand raised_hand
1f91a stop
1f590 high_five palm
1f596 spock live_long_and_prosper
1f44b wave hello hi
1f919 call_me
1f4aa muscle
1f595 middle_finger
270d writing
1f933 selfie
1f485 nail_polish nail_care
1f48d ring
1f484 lipstick
1f48b lipstick_kiss
1f444 lips mouth
1f445 tongue
1f442 ear
1f443 nose
1f463 footprints feet
1f441 eye
1f440 eyes looking
1f5e3 speaking_head
1f464 silhouette shadow
1f465 silhouettes shadows
1f476 baby
1f466 boy
1f467 girl
1f468 man
1f469 woman
1f474 older_man elderly_man
1f475 older_woman elderly_woman
1f472 gua_pi_mao
1f473 turban
1f46e police cop
1f477 construction_worker
1f482 guard
1f389 tada
2764 heart
1f6e0 working_on_it
1f419 octopus
1f384 holiday_tree
2797 division
2b06 up
1f947 gold
1f95d kiwi
1f408 cat
1f415 dog
1f407 rabbit
`;

export interface ZulipEmojiNames {
  code: string;
  canonical: string;
  aliases: string[];
}

export function zulipNamedEmoji(): ZulipEmojiNames[] {
  return TABLE.trim()
    .split('\n')
    .map((line) => {
      const [code, canonical, ...aliases] = line.trim().split(/\s+/);
      return { code, canonical, aliases };
    });
}
